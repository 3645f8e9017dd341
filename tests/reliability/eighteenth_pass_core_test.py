#!/usr/bin/env python3
"""An eighteenth hostile pass on the core (issue #29): combinations no pass
reached (a time switch and a Poincare section inside a Zeno accumulation,
friction on Hertz contacts, a spinning sphere thrown onto a rough tilted
plane, a pendulum's impacts on a wall at large angles), through the Python
package and nsmc, every answer checked against a closed form derived here,
independently of the runtime.

    tests/reliability/eighteenth_pass_core_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: a disc
             bouncing to rest on a rough floor (e = 0.5, mu = 0.3), pushed
             by 1 N from an instant at or just inside its Zeno point (t_inf
             - 1e-9 s ... t_inf + 1e-12 s): rk4 and adaptive jumped over
             the switch with the tail and never applied the push (the disc
             stayed put, exit 0); now it rolls at 2 F/(3 m), or the run
             stops naming the cascade.  An oscillator beside a ball
             bouncing to rest, a section plane on the oscillator crossed
             inside the ball's accumulation: the record was lost without a
             word (no record, exit 0); now it is recorded, or the run
             stops naming the jump.  A block sliding to rest on a rough
             floor 1e-12 to 3e-4 s before a ball's Zeno point: exact flew
             it past its stop with the tail, and its friction drove it
             back (a reversal, 1.8e-7 m back, exit 0); now it stops at
             v0/(mu g), x = v0^2/(2 mu g).  A mass reaching a penalty stop
             1e-9 to 3e-4 s before a ball's Zeno point: flown through the
             stop with the tail, the run was refused ("passed through
             without an event"); now it goes in and out by hand.  A
             block sliding to rest (mu_k = 0.2) at the instant a push of
             2.9 N (below its hold, mu_s m g = 2.943 N) switches on: exact
             and adaptive kept it sliding under the push (1.04 m off at 2
             s, exit 0); now it is judged at the switch and held.  The
             same block coming to rest 1e-12 to 1e-11 s before the switch
             that ends exact's step: the slip's zero, inside the band of
             the step's start, was not located and the next step took it
             as a reversal (1.04 m backwards under a push of -2.9 N, exit
             0; at 1e-10 s refused as a sign change without an event); now
             its zero is located and it sticks.
  push       the same disc pushed from after its Zeno point by forces below
             and above its rolling limit 3 mu m g, and with mu = 0: rolling
             at 2 F/(3 m), or sliding at F/m - mu g.
  hfric      a disc thrown at a Hertz floor with friction, no gravity (k,
             exponent, mu, u, w0, v0 pushed): it leaves at v0, its slip
             taking mu 2 m v0 (or sticking, rolling at u - s0/3), by rk4,
             adaptive and taylor.
  pendwall   a pendulum against a wall at phi_w (large angles, near the
             top, a wall near the turning point): every impact time by
             Legendre's F(phi, k) and the rebound e w, by rk4, adaptive and
             taylor.
  space      a spinning sphere thrown onto a rough tilted plane (Glocker's
             law with et): its velocity and spin after the impact by hand,
             or rolling at 5/7 g sin(alpha) after a plastic one.
  units      forces written with negated bare numbers and units hidden in
             products: accepted or refused as the units say.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, compiled, main, refusal, rk, thin  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
G = 9.81


# a disc dropped from h onto a rough floor, pushed along it from ts
PUSH = '''model push "a disc bouncing to rest on a rough floor, then pushed"
param e = 0.5
param mu = 0.3
param F = 1 N
param ts = 2 s
param h = 1 m
disc D: mass = 1 kg, radius = 0.1 m, inertia = 0.005 kg*m^2
gravity 9.81 m/s^2
gap fl: D.y - 0.1 m >= 0 m, impact(e = e)
friction ff: slip = D.vx + 0.1 m*D.omega, mu = mu, normal = gap fl
force push: on D.x = if t < ts then 0 N else F
init D.y = 0.1 m + h
simulate t_end = 3 s
output every 10 ms: D.x, D.vx, D.omega, D.y
'''


def push_x(F, mu, ts, t):
    """x(t) of the disc (m = 1 kg, I = m R^2/2) at rest from ts under F at
    its centre: rolling at 2 F/3 while the friction it needs, F/3, is
    within mu m g, else sliding at F - mu g."""
    a = 2 * F / 3 if F / 3 <= mu * G else F - mu * G
    return a * (t - ts) ** 2 / 2 if t > ts else 0.0


def push_check(r, F, mu, ts):
    """Largest distance of the run's D.x from push_x."""
    return max(abs(x - push_x(F, mu, ts, t)) for t, x in zip(r.t, r["D.x"]))


# a ball bouncing to rest beside an oscillator falling on its spring
ZB = '''model zb "a ball bouncing to rest beside an oscillator"
param e = 0.5
mass B = 1 kg
gravity 9.81 m/s^2
gap fl: B.x >= 0 m, impact(e = e)
mass O = 1 kg
spring O -- ground, k = 1 N/m
init B.x = 1 m, O.x = 1 m
simulate t_end = 3 s
output every 10 ms: B.x, O.x
'''


# a ball bouncing to rest beside a block sliding to rest on a rough floor
ZF = '''model zf "a ball bouncing to rest beside a block sliding to rest"
param v0 = 1 m/s
mass B = 1 kg
gap fl: B.x >= 0 m, impact(e = 0.5)
force gB: on B = -1 kg*9.81 m/s^2
mass K = 1 kg
friction fk: K -- ground, mu = 0.2, normal = 1 kg*9.81 m/s^2
init B.x = 1 m, K.v = v0
simulate t_end = 3 s
output every 10 ms: B.x, K.x, K.v
'''


# a ball bouncing to rest beside a mass reaching a linear penalty stop
ZP = '''model zp "a ball bouncing to rest beside a mass reaching a stop"
param x0 = 1 m
mass B = 1 kg
gap fl: B.x >= 0 m, impact(e = 0.5)
force gB: on B = -1 kg*9.81 m/s^2
mass K = 1 kg
gap st: 2 m - K.x >= 0 m, penalty(k = 1e4, c = 0 N*s/m)
init B.x = 1 m, K.x = x0, K.v = 1 m/s
simulate t_end = 3 s
output every 10 ms: B.x, K.x, K.v
'''


def stop_x(x0, th, t):
    """K.x of the mass at 1 m/s from x0 reaching the stop (100 rad/s) at th:
    half a period inside it, 2 + sin(100 (t - th))/100, then back at 1 m/s."""
    tl = th + math.pi / 100
    return x0 + t if t < th else 2 + math.sin(100 * (t - th)) / 100 if t < tl else 2 - (t - tl)


# a block sliding to rest as a push switches on
STOPSW = '''model stopsw "a block sliding to rest as a push switches on"
param F = 2.9 N
param ts = 1 s
mass K = 1 kg
friction fk: K -- ground, mu_s = 0.3, mu_k = 0.2, normal = 1 kg*9.81 m/s^2
force push: on K = if t < ts then 0 N else F
init K.v = 1 m/s
simulate t_end = 2 s
output every 10 ms: K.x, K.v
'''


def stopsw_x(F, ts, t):
    """K.x of the block at 1 m/s slowed by mu_k g = 0.2 g to rest at t0 =
    1/(0.2 g), x0 = t0/2, then pushed by F from ts >= t0: at rest while
    |F| <= mu_s m g = 0.3 g, else sliding at sign(F) (|F| - 0.2 g)."""
    t0 = 1 / (0.2 * G)
    if t <= t0:
        return t - 0.1 * G * t * t
    if t <= ts or abs(F) <= 0.3 * G * (1 - 1e-9):
        return t0 / 2
    return t0 / 2 + math.copysign(abs(F) - 0.2 * G, F) * (t - ts) ** 2 / 2


def case_findings(tmp):
    """A switch and a section plane inside a jumped Zeno tail."""
    m = compiled(tmp, "push", PUSH)
    tinf = math.sqrt(2 / G) * 3        # t1 (1 + e)/(1 - e) at h = 1 m, e = 0.5
    for d in (0.0, -1e-12, -1e-9, 1e-12, -1e-6):
        ts = tinf + d
        for meth in thin(("rk4", "adaptive", "exact")):
            got = []
            msg = refusal(lambda: got.append(m.run(method=meth, params={"ts": ts}, **rk(meth))))
            err = push_check(got[0], 1.0, 0.3, ts) if got else None
            print("  disc at rest from t_inf = %.17g s pushed by 1 N from t_inf %+g s, %s -> %s"
                  % (tinf, d, meth, "x within %.3g m of 2 F/(3 m) (t - ts)^2/2" % err if got
                     else msg[:160]))
            check((got and err < 1e-9) or (not got and "Zeno cascade" in msg),
                  "a push switched on at t_inf %+g s (%s): applied, or refused naming the "
                  "cascade" % (d, meth))
    zb = compiled(tmp, "zb", ZB)
    # O.x = -g + (1 + g) cos t; its plane O.x = c crossed going down at tc
    for d in (0.0, 1e-12, 1e-9, 1e-6, -1e-8, -1e-4):
        tc = tinf - d
        c = -G + (1 + G) * math.cos(tc)
        for meth in thin(("exact", "rk4", "adaptive")):
            got = []
            msg = refusal(lambda: got.append(zb.section("plane:O.x - %.17g:down" % c, t_end=3,
                                                        method=meth)))
            rec = got[0] if got else None
            print("  plane O.x = %.17g crossed at t_inf - %g s, %s -> %s" % (
                c, d, meth, msg[:160] if msg else "%d record(s) at %s" % (len(rec), rec[:, 0])))
            ok = (len(rec) == 1 and abs(rec[0, 0] - tc) < 1e-12 and abs(rec[0, 3] - c) < 1e-12
                  ) if got else "crossed inside a Zeno cascade" in msg
            check(ok, "a section plane crossed at t_inf - %g s (%s): recorded at its time, or "
                  "refused naming the jump" % (d, meth))
    # the block stops at ts = v0/(mu g), x = v0^2/(2 mu g), and stays
    zf = compiled(tmp, "zf", ZF)
    for d in (1e-12, 1e-9, 1e-6, 1e-4, 3e-4, -1e-6):
        ts = tinf - d
        v0 = 0.2 * G * ts
        for meth in thin(("exact", "rk4", "adaptive")):
            r = zf.run(method=meth, params={"v0": v0}, **rk(meth))
            err = max(abs(x - (v0 * t - 0.1 * G * t * t if t < ts else v0 * ts / 2))
                      for t, x in zip(r.t, r["K.x"]))
            back = [float(x["t"]) for x in r.events if x["kind"] == "reversal"]
            rest = max(abs(x) for t, x in zip(r.t, r["B.x"]) if t > tinf + 1e-3)
            print("  block sliding to rest at t_inf - %g s beside a ball's Zeno point, %s -> x "
                  "within %.3g m, reversals at %s, ball within %.3g m of its floor after it"
                  % (d, meth, err, back, rest))
            check(err < 1e-12 and not back and rest < 1e-12, "a block sliding to rest at t_inf "
                  "- %g s (%s): stops there, x = v0^2/(2 mu g)" % (d, meth))
    # the block's stop and the push's switch at one instant, or the stop
    # 1e-12 .. 1e-10 s before the switch that ends exact's step
    sw = compiled(tmp, "stopsw", STOPSW)
    t0 = 1 / (0.2 * G)
    for F, d in ((2.9, 0), (2.94, 0), (-2.9, 0), (5, 0), (-2.9, 1e-12), (-2.9, 1e-11),
                 (0, 1e-10), (1, 2e-12), (-5, 1e-12)):
        for meth in thin(("exact", "adaptive", "rk4")):
            r = sw.run(method=meth, params={"F": F, "ts": t0 + d}, **rk(meth))
            err = max(abs(x - stopsw_x(F, t0 + d, t)) for t, x in zip(r.t, r["K.x"]))
            print("  block coming to rest at %.17g s, pushed by %g N from %g s later, %s -> x "
                  "within %.3g m, events %s" % (t0, F, d, meth, err,
                                                [str(x["kind"]) for x in r.events][:3]))
            check(err < 1e-12, "a block coming to rest %g s before a push of %g N switches on "
                  "(%s): %s by hand" % (d, F, meth, "held" if abs(F) < 2.943 else "sliding"))
    zp = compiled(tmp, "zp", ZP)
    for d in (1e-12, 1e-9, 1e-6, 1e-4, 3e-4):
        th = tinf - d
        for meth in thin(("exact", "rk4", "adaptive")):
            got = []
            msg = refusal(lambda: got.append(zp.run(method=meth, params={"x0": 2 - th},
                                                    **rk(meth, 1e-4))))
            err = max(abs(x - stop_x(2 - th, th, t)) for t, x in zip(got[0].t, got[0]["K.x"])
                      ) if got else None
            print("  mass reaching a penalty stop at t_inf - %g s beside a ball's Zeno point, %s "
                  "-> %s" % (d, meth, "x within %.3g m" % err if got else msg[:150]))
            check(got and err < 1e-8, "a mass reaching a penalty stop at t_inf - %g s (%s): in "
                  "and out of it by hand" % (d, meth))


def case_push(tmp):
    """The disc pushed after its Zeno point."""
    m = compiled(tmp, "push", PUSH)
    for e, mu, F, h in ((0.5, 0.3, 1, 1), (0.5, 0.3, 8.829, 1), (0.5, 0.3, 8.8, 1),
                        (0.5, 0.3, 8.9, 1), (0.5, 0.3, 20, 1), (0, 0.3, 5, 1), (0.8, 0.1, 5, 0.1),
                        (0.5, 0, 5, 1), (0.5, 1e-9, 5, 1)):
        tinf = math.sqrt(2 * h / G) * (1 + e) / (1 - e)
        ts = tinf + 0.2 if e else tinf
        for meth in thin(("exact", "rk4", "adaptive")):
            r = m.run(method=meth, params={"e": e, "mu": mu, "F": F, "ts": ts, "h": h},
                      **rk(meth))
            err = push_check(r, F, mu, ts)
            low = min(r["D.y"]) - 0.1
            print("  disc (e = %g, mu = %g) pushed by %g N from %.6g s, %s -> x within %.3g m, "
                  "lowest %.3g m" % (e, mu, F, ts, meth, err, low))
            check(err < 1e-12 * (1 + F) and low > -1e-15, "a disc pushed by %g N on a floor of "
                  "mu = %g after its Zeno point (%s): rolling or sliding by hand" % (F, mu, meth))


HF = '''model hfric "a disc thrown at a Hertz floor with friction, no gravity"
param kh = 1e7
param p = 1.5
param mu = 0.1
param u = 1 m/s
param w0 = 0 rad/s
param v0 = 1 m/s
disc D: mass = 1 kg, radius = 0.1 m, inertia = 0.005 kg*m^2
gap F: D.y - 0.1 m >= 0 m, penalty(k = kh, c = 0 N*s/m, exponent = p)
friction FF: slip = D.vx + 0.1 m*D.omega, mu = mu, normal = gap F
init D.y = 0.1 m + 1 mm, D.vx = u, D.vy = -v0, D.omega = w0
simulate t_end = 20 ms
output every 0.1 ms: D.y, D.vx, D.vy, D.omega
'''


def case_hfric(tmp):
    """The normal impulse 2 m v0 (elastic), the slip's share mu of it."""
    m = compiled(tmp, "hfric", HF)
    for kh, p, mu, u, w0, v0 in ((1e7, 1.5, 0.1, 1, 0, 1), (1e7, 1.5, 0.1, 0.1, 0, 1),
                                 (1e7, 1.0, 0.1, 1, 0, 1), (1e9, 1.5, 0.3, 1, -10, 1),
                                 (1e7, 1.5, 0.1, 0, 10, 1), (1e7, 1.5, 0, 1, 0, 1),
                                 (1e7, 1.5, 0.5, 0.6, 0, 0.2), (1e7, 1.5, 0.1, -1, 5, 1),
                                 (1e7, 1.5, 0.1, 0.6, 0, 1)):
        s0, Pn = u + 0.1 * w0, 2 * v0       # the slip, the normal impulse per kg
        if abs(s0) > 3 * mu * Pn:           # ds = 3 dP/m for I = m R^2/2
            vx, w = u - math.copysign(mu * Pn, s0), w0 - 2 * math.copysign(mu * Pn, s0) / 0.1
        else:
            vx, w = u - s0 / 3, w0 - 2 * s0 / 0.3
        for meth in thin(("rk4", "adaptive", "taylor")):
            r = m.run(method=meth, params={"kh": kh, "p": p, "mu": mu, "u": u, "w0": w0,
                                           "v0": v0})
            dv = max(abs(r["D.vy"][-1] - v0), abs(r["D.vx"][-1] - vx),
                     0.1 * abs(r["D.omega"][-1] - w))
            print("  disc at (%g, %g m/s, %g rad/s) onto a Hertz floor k = %g, exponent %g, "
                  "mu = %g, %s -> velocities within %.3g m/s" % (u, -v0, w0, kh, p, mu, meth, dv))
            check(dv < (1e-7 if meth == "rk4" else 1e-8), "a disc thrown at a Hertz floor with "
                  "friction (k = %g, mu = %g, u = %g, %s): its parting velocities by hand"
                  % (kh, mu, u, meth))


PW = '''model pw "a pendulum against a wall"
param phi0 = 1
param phi_w = -0.3
param e = 0.8
body P: mass = 1 kg, inertia = 1 kg*m^2
force gt: on P.phi = -1 kg*9.81 m/s^2*1 m*sin(P.phi)
gap wall: 1 m*(P.phi - phi_w) >= 0 m, impact(e = e)
init P.phi = phi0, P.omega = 0 rad/s
simulate t_end = 10 s
output every 10 ms: P.phi, P.omega
'''


def pend_time(a, b, top):
    """Time from angle a to b on the swing of amplitude top (l = 1 m):
    sin(phi/2) = k sin(u), k = sin(top/2), t = F(u, k^2)/sqrt(g)."""
    import mpmath as mp
    mp.mp.dps = 30
    k = mp.sin(mp.mpf(top) / 2)

    def u(ph):
        return mp.asin(min(mp.mpf(1), max(mp.mpf(-1), mp.sin(mp.mpf(ph) / 2) / k)))
    return (mp.ellipf(u(b), k * k) - mp.ellipf(u(a), k * k)) / mp.sqrt(G)


def pend_impacts(phi0, pw, e, tend):
    """The impact times of the pendulum released at phi0 against the wall at
    pw: the fall to it, then each rebound at e times the speed, up to the
    amplitude where cos = cos pw - w^2/(2 g), and back."""
    import mpmath as mp
    t = pend_time(pw, phi0, phi0)
    out, w = [t], mp.sqrt(2 * G * (mp.cos(pw) - mp.cos(phi0)))
    while len(out) < 40:
        w = e * w
        c = mp.cos(pw) - w * w / (2 * G)
        if c <= -1 or w == 0:
            break
        top = mp.acos(c)
        t += 2 * pend_time(pw, top, top)
        if t > tend:
            break
        out.append(t)
    return [float(x) for x in out]


def case_pendwall(tmp):
    """Impact times of a pendulum on a wall by Legendre's integral."""
    m = compiled(tmp, "pw", PW)
    for phi0, pw, e in ((1, -0.3, 0.8), (3.1, 0, 0.5), (0.5, 0.49, 1), (0.01, -0.005, 0.9),
                        (2, -1.9, 0.7), (1, -0.3, 0.95)):
        ref = pend_impacts(phi0, pw, e, 10)
        for meth in thin(("rk4", "adaptive", "taylor")):
            r = m.run(method=meth, params={"phi0": phi0, "phi_w": pw, "e": e})
            ti = [float(x["t"]) for x in r.events if x["kind"] == "impact"]
            k = min(len(ti), len(ref))
            err = max(abs(a - b) for a, b in zip(ti[:k], ref[:k]))
            low = min(r["P.phi"]) - pw
            print("  pendulum from %g rad onto a wall at %g rad, e = %g, %s -> %d impacts (%d by "
                  "hand) within %.3g s, lowest %.3g rad past the wall" % (
                      phi0, pw, e, meth, len(ti), len(ref), err, -low))
            check(k == len(ref) and err < (2e-8 if meth == "adaptive" else 1e-10) and
                  low > -1e-12, "a pendulum from %g rad onto a wall at %g rad (%s): its impact "
                  "times by hand" % (phi0, pw, meth))


SP = '''model sp "a spinning sphere thrown onto a tilted plane with friction"
param al = 0.3
param e = 0.5
param mu = 0.2
param et = 0
param vx0 = 1 m/s
param vy0 = 0.5 m/s
param vz0 = -2 m/s
param w1 = 3 rad/s
param w2 = -20 rad/s
param w3 = 7 rad/s
gravity g = (0, 0, -9.81 m/s^2)
rigid B: mass = 2 kg, inertia = (0.008, 0.008, 0.008)
plane floor: normal = (-sin(al), 0, cos(al)), offset = 0 m
gap c: B.sphere(radius = 0.1 m) above floor, impact(e = e)
friction f: normal = gap c, mu = mu, et = et
init B.x = -(0.1 m + 1e-3 m)*sin(al), B.z = (0.1 m + 1e-3 m)*cos(al), B.vx = vx0, B.vy = vy0, B.vz = vz0, B.omega = (w1, w2, w3)
simulate t_end = 4 ms
output every 4 ms: B.vx, B.vy, B.vz, B.w1, B.w2, B.w3
'''


def sphere_after(al, e, mu, et, v, w):
    """The sphere (m = 2 kg, r = 0.1 m, I = 0.008 kg m^2) 1 mm above the
    plane of normal n: its landing time, velocity and (body frame) spin
    after Glocker's law: P_N = m (1 + e) |u_N|, P_T = -(1 + et) u_T/K (K =
    1/m + r^2/I) if within mu P_N, else mu P_N against u_T; the spin's
    change turned back by the body's rotation |w| t about w in flight."""
    import numpy as np
    n = np.array([-math.sin(al), 0, math.cos(al)])
    gv = np.array([0, 0, -G])
    a, b = (gv @ n) / 2, v @ n
    t = (-b - math.sqrt(b * b - 4 * a * 1e-3)) / (2 * a)
    v = v + gv * t
    u = v + np.cross(w, -0.1 * n)
    un = u @ n
    ut = u - un * n
    Pn = -2.0 * (1 + e) * un
    Pt = -(1 + et) * ut / (1 / 2.0 + 0.01 / 0.008)
    if np.linalg.norm(Pt) > mu * Pn:
        Pt = -mu * Pn * ut / np.linalg.norm(ut)
    dw = np.cross(-0.1 * n, Pt) / 0.008
    th = np.linalg.norm(w) * t
    if th > 0:
        k = w / np.linalg.norm(w)
        dw = dw * math.cos(th) - np.cross(k, dw) * math.sin(th) + k * (k @ dw) * (1 - math.cos(th))
    return t, v + (Pn * n + Pt) / 2.0, w + dw


def case_space(tmp):
    """Glocker's law on a sphere landing on a rough tilted plane."""
    import numpy as np
    m = compiled(tmp, "sp", SP)
    for al, e, mu, et, vx0, vy0, vz0, w1, w2, w3 in (
            (0.3, 0.5, 0.2, 0, 1, 0.5, -2, 3, -20, 7), (0.3, 0.5, 10, 0, 1, 0.5, -2, 3, -20, 7),
            (0.3, 0.5, 10, 1, 1, 0.5, -2, 3, -20, 7), (0.3, 1, 0.05, 0.5, 1, 0.5, -2, 3, -20, 7),
            (0, 0.8, 0.3, 0, 0, 0, -1, 0, 0, 50), (1.2, 0.2, 0.4, 0.3, 2, -1, -3, 10, 10, 10),
            (0.3, 0, 0.2, 0, 1, 0.5, -2, 0, 0, 0), (-0.7, 0.9, 1e-3, 0, 1, 2, -5, 100, 0, -100)):
        t, vr, wr = sphere_after(al, e, mu, et, np.array([vx0, vy0, vz0], float),
                                 np.array([w1, w2, w3], float))
        if e == 0:      # held: rolling down the slope, -5/7 g sin(al) (cos al, 0, sin al)
            vr = vr - 5 / 7 * G * math.sin(al) * np.array([math.cos(al), 0, math.sin(al)]) * (
                4e-3 - t)
            wr = None
        else:
            vr = vr + np.array([0, 0, -G]) * (4e-3 - t)
        for meth in thin(("rk4", "adaptive", "taylor")):
            r = m.run(method=meth, params={"al": al, "e": e, "mu": mu, "et": et, "vx0": vx0,
                                           "vy0": vy0, "vz0": vz0, "w1": w1, "w2": w2, "w3": w3},
                      **rk(meth, 1e-5))
            dv = max(abs(r[c][-1] - x) for c, x in zip(("B.vx", "B.vy", "B.vz"), vr))
            dw = 0 if wr is None else max(abs(r[c][-1] - x) for c, x in
                                          zip(("B.w1", "B.w2", "B.w3"), wr))
            print("  sphere onto a plane tilted %g rad, e = %g, mu = %g, et = %g, spin (%g, %g, "
                  "%g), %s -> v within %.3g m/s, spin within %.3g rad/s" % (
                      al, e, mu, et, w1, w2, w3, meth, dv, dw))
            check(dv < 1e-12 and dw < 1e-12, "a spinning sphere onto a rough plane tilted %g "
                  "rad (e = %g, mu = %g, et = %g, %s): Glocker's law by hand" % (
                      al, e, mu, et, meth))


UNITS = '''model u "u"
param a = 2 m
param k = 3 N/m
mass M = 1 kg
init M.x = 1 m
force push: on M = %s
simulate t_end = 1 s
output every 0.5 s: M.x
'''


def case_units(tmp):
    """Forces with negated bare numbers: the units decide."""
    path, out = os.path.join(tmp, "u.nsm"), os.path.join(tmp, "u.c")
    for expr, ok in (("-2 kg", False), ("-(2 kg)", False), ("-2*M.x", True), ("(-2)*M.x", True),
                     ("-2 kg*M.x", False), ("-a*M.x", False), ("-k*M.x*(-1)", True),
                     ("-k*M.x/-1", True), ("-k*-M.x", True), ("-k*M.x*exp(M.x)", False),
                     ("-k*1 m*sin(-M.x)", False), ("-k*1 m*sin(-M.x/1 m)", True),
                     ("-k*M.x^2", False), ("-k*M.x^2/1 m", True), ("-2^2*M.x", False),
                     ("-(-(-2))*M.x", False), ("-2 m^0*M.x", False), ("-(2*2)", False),
                     ("2 s/1 s*k*M.x", True)):
        with open(path, "w") as f:
            f.write(UNITS % expr)
        p = subprocess.run([NSMC, path, "-o", out], capture_output=True, text=True, timeout=60)
        print("  force on M = %s -> %d %s" % (expr, p.returncode, p.stderr.strip()[:100]))
        check((p.returncode == 0) == ok and (ok or "error: unit mismatch" in p.stderr),
              "a force written as %s: %s" % (expr, "accepted" if ok else "refused, naming "
                                             "the units"), p)


CASES = {"findings": case_findings, "push": case_push, "hfric": case_hfric,
         "pendwall": case_pendwall, "space": case_space, "units": case_units}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-eighteenth-core-", case_arg=3))
