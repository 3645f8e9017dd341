"""Reference for the rotating bouncing ball of the PyNonsmooth benchmark
collection (seed 002): a disc m = 1, R = 0.1, th = 2/5 m R^2, g = 9.81, on
the floor y >= R with Newton's law and Coulomb friction mu = 0.2 (e_T = 0) on
the slip velocity gamma = vx + R omega.  Its four scenarios:

1. from (0, 1, 0) at rest, e_N = 0.5: vertical bounces only (gamma stays 0,
   friction never acts); impacts at t1 (1 + 2 e (1 - e^n) / (1 - e)),
   t1 = sqrt(2 (1 - R) / g), accumulating at t1 (1 + e) / (1 - e);
2. spin 50 rad/s, e_N = 0: the impact at t1 cannot stop the slip
   (W gamma- = 5/3.5 > mu P_N = mu m g t1): it slides, P_T = -mu P_N, then
   slides on the floor until gamma = 0, and rolls;
3. spin 10 rad/s, e_N = 0: the impact sticks (W gamma- = 1/3.5 < mu P_N):
   rolling from t1 on;
4. from (-0.5, 1, 0) with u = (1, 0, 50), e_N = 0.5: a sliding impact at t1,
   a sticking one at 2 t1, rolling bounces accumulating at 3 t1;
5. (beyond the collection) spin 200 rad/s, e_N = 0.5: every impact slides,
   the bounces accumulate at 3 t1 while the contact still slips (the tail's
   tangential impulses summed), then the disc slides on the floor and rolls
   at -40/7 m/s.

Every impulse acts at the contact point and the normal force and weight pass
through it on the floor, so the angular momentum about the contact point,
L = th omega - m R vx, is the same before and after every impact and every
sliding phase: the disc rolls at omega = L / (th + m R^2), vx = -R omega,
whatever mu (2/7 R omega0 with vx0 = 0).  These formulas are checked against
the event-driven computation of planar.py.
"""
from mpmath import mp, mpf

import piecewise as pw
import planar

M, R, G, MU = mpf(1), mpf("0.1"), mpf("9.81"), mpf("0.2")
TH = mpf(2) / 5 * M * R ** 2
T_END = mpf(2)

SCENARIOS = {
    1: dict(q0=(0, 1, 0), u0=(0, 0, 0), e=mpf("0.5")),
    2: dict(q0=(0, 1, 0), u0=(0, 0, 50), e=mpf(0)),
    3: dict(q0=(0, 1, 0), u0=(0, 0, 10), e=mpf(0)),
    4: dict(q0=(mpf("-0.5"), 1, 0), u0=(1, 0, 50), e=mpf("0.5")),
    5: dict(q0=(0, 1, 0), u0=(0, 0, 200), e=mpf("0.5"), t_end=mpf(4)),
}


def run(k):
    sc = SCENARIOS[k]
    floor = planar.Wall("floor", (0, 1), (0, 0), sc["e"], MU)
    d = planar.Disc(M, R, TH, (0, -G), [floor])
    return planar.Run(d, sc["q0"], sc["u0"], sc.get("t_end", T_END))


def momentum(u):
    return TH * u[2] - M * R * u[0]


def compute():
    out = []
    t1 = mp.sqrt(2 * (1 - R) / G)
    for k in SCENARIOS:
        r = run(k)
        e = SCENARIOS[k]["e"]
        u0 = [mpf(v) for v in SCENARIOS[k]["u0"]]
        L = momentum(u0)
        imps = r.impacts
        pw.expect(abs(imps[0][0] - t1) < mpf("1e-40"), "scenario %d: first impact at t1" % k)
        for t, w, vn, PN, PT, stuck, ub, ua in imps:
            pw.expect(abs(momentum(ua) - momentum(ub)) < mpf("1e-40"),
                      "scenario %d: angular momentum about the contact point kept by the impact" % k)
        rolling_speed = -R * L / (TH + M * R ** 2)
        if k == 1:
            for n, imp in enumerate(imps):
                tn = t1 * (1 + 2 * e * (1 - e ** n) / (1 - e))
                pw.expect(abs(imp[0] - tn) < mpf("1e-40") and imp[4] == 0, "scenario 1: impact %d" % n)
            zeno = [ev for ev in r.events if ev[1] == "zeno"]
            pw.expect(len(zeno) == 1 and abs(zeno[0][0] - t1 * (1 + e) / (1 - e)) < mpf("1e-40"),
                      "scenario 1: accumulation point t1 (1 + e)/(1 - e)")
        if k == 2:
            t, w, vn, PN, PT, stuck, ub, ua = imps[0]
            pw.expect(not stuck and abs(PT + MU * M * G * t1) < mpf("1e-40"),
                      "scenario 2: sliding impact, P_T = -mu m g t1")
            gam = ua[0] + R * ua[2]
            tr = t1 + gam / (MU * G * (1 + M * R ** 2 / TH))
            pw.expect(len(r.rolling) == 1 and abs(r.rolling[0][0] - tr) < mpf("1e-40"),
                      "scenario 2: rolling starts when the slip reaches zero")
            pw.expect(abs(r.rolling[0][2][0] - rolling_speed) < mpf("1e-40"),
                      "scenario 2: rolling speed -2/7 R omega0")
        if k == 3:
            t, w, vn, PN, PT, stuck, ub, ua = imps[0]
            pw.expect(stuck and len(imps) == 1 and abs(ua[0] - rolling_speed) < mpf("1e-40"),
                      "scenario 3: sticking impact, rolling at -2/7 R omega0 from t1")
        if k == 4:
            pw.expect(not imps[0][5] and imps[1][5], "scenario 4: sliding, then sticking impact")
            pw.expect(abs(imps[1][0] - 2 * t1) < mpf("1e-40"), "scenario 4: second impact at 2 t1")
            pw.expect(abs(imps[1][7][0] - rolling_speed) < mpf("1e-40"),
                      "scenario 4: rolling speed from the second impact on")
            zeno = [ev for ev in r.events if ev[1] == "zeno"]
            pw.expect(len(zeno) == 1 and abs(zeno[0][0] - 3 * t1) < mpf("1e-40"),
                      "scenario 4: accumulation at 3 t1")
        if k == 5:
            # every impact slides (P_T = -mu P_N), the tail too: the normal
            # impulses from t1 on sum to (1 + e)/(1 - e) m v1 (v1 = g t1),
            # the slip drops by mu/W times that, then by mu g/W per second
            # of sliding on the floor until it reaches zero
            pw.expect(all(not imp[5] for imp in imps), "scenario 5: every impact slides")
            zeno = [ev for ev in r.events if ev[1] == "zeno"]
            pw.expect(len(zeno) == 1 and abs(zeno[0][0] - t1 * (1 + e) / (1 - e)) < mpf("1e-40"),
                      "scenario 5: accumulation at t1 (1 + e)/(1 - e)")
            W = 1 / (1 / M + R ** 2 / TH)
            gam = R * u0[2] - MU / W * (1 + e) / (1 - e) * M * G * t1
            tr = t1 * (1 + e) / (1 - e) + gam / (MU * G / W)
            pw.expect(len(r.rolling) == 1 and abs(r.rolling[0][0] - tr) < mpf("1e-40"),
                      "scenario 5: rolling when the slip left by the tail is gone")
            pw.expect(abs(r.rolling[0][2][0] - rolling_speed) < mpf("1e-40"),
                      "scenario 5: rolling speed -2/7 R omega0")
        times = pw.grid(0, SCENARIOS[k].get("t_end", T_END), "0.01")
        planar.check_samples(r, times)
        out.append(("rotating_ball_%d" % k, planar.events_text(r), planar.samples_text(r, times)))
    return out


if __name__ == "__main__":
    pw.main(compute())
