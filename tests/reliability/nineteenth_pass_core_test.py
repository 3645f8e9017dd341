#!/usr/bin/env python3
"""A nineteenth hostile pass on the core: time switches whose condition
oscillates, beside Zeno tails and friction, every answer against a closed
form derived here.

    tests/reliability/nineteenth_pass_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  oscswitch  a free mass P (1 kg) pushed by 1 N while sin(w t) > 0.5
             (gravity balanced), beside a ball dropped from 1 m onto a
             floor (e = 0.3, 0.8, 0.95), w = 10 ... 30000 rad/s, by exact,
             rk4 and adaptive, and by taylor and rk4 with a pendulum making
             the model nonlinear: P's speed is the push's time on, the
             measure of {s <= t: sin(w s) > 1/2} (pi/6 to 5 pi/6 of every
             period), within 1e-9 m/s throughout, every switch instant at
             (pi/6 + 2 pi n)/w and (5 pi/6 + 2 pi n)/w.  exact missed the
             switches (its steps of a free mass are the run's length, and
             a switch function turning more than once in a step was not
             seen): P's speed was off by up to 1.2 m/s, exit 0.
  osczeno    the same push beside a ball whose Zeno point comes while it
             switches (e = 0.95, w = 3000 rad/s; e = 0.8, w = 30000 rad/s;
             run to t_inf + 1 s), by exact, rk4 and adaptive: P's speed as
             above, the ball's zeno record at t_inf = t1 (1 + 2e)/(1 - e).
             exact jumped the ball's tail over many periods of the switch
             (its steps, and so its jump's threshold, are long): P.v off by
             2e-3 m/s, exit 0.
  zenofric   a ball dropped from 1 m (e = 0.5) coming to rest at
             t_inf = 3 sqrt(2/g) beside a fast oscillator with Coulomb
             friction (w = 300, 3000 rad/s, mu N = 0.0981 N), whose slip
             crosses 0 many times inside the ball's tail: the oscillator's
             closed form half-period by half-period (its amplitude falls by
             2 mu N/k each), by exact, rk4 and adaptive; the ball's zeno
             record at t_inf.
  beads      a train of four beads (10, 0.5, 10, 1 kg; e = 0, 0.25, 0.8)
             struck at 1 m/s, and 120 trains of five beads (masses and
             restitutions drawn with a fixed seed: masses from 0.13 to 10.1
             kg, e from 0 to 1, several 0), by exact, rk4 and adaptive under
             the sequential law: the velocities after the instant are the
             limit of the pair collisions, fastest closing first, carried
             out here until no contact closes faster than 1e-15 m/s.  A
             cycle of collisions over some contacts was summed at once while
             another contact closed (or came to close inside the cycle's
             tail): the four beads' last left at 0.798 m/s where the
             sequence gives 0.536 m/s, 17 of 150 five-bead trains off by up
             to 0.28 m/s (exit 0).  Within 1e-4 m/s now (the limit is still
             taken first for a contact closing below 1000 times its
             velocity tolerance).
  long       a ball bouncing elastically on a floor 10015 times (a drop of
             1 mm, 286 s) by exact, rk4 and adaptive, and from 1, 3 and 10
             mm for 60 s sampled every 1, 0.3 and 0.05 s by rk4 and
             adaptive: the n-th impact at t1 (1 + 2n), t1 = sqrt(2 h/g),
             within 1e-8 s, the mechanical energy m g h within 1e-10 of it.
             adaptive refused the 1 cm drop sampled every 0.3 s at 57.6 s
             and the 1 mm drop at 180 s as "the contact is passed through
             without an event" (exit 3): the landing located at t ~ 57 s has
             its gap off by its rate times the time's rounding (-1.02e-14
             m), below the gap's band (1e-14 m), and a step from there
             longer than the flight was taken as no crossing.
  spacewall  a solid sphere (2 kg, r = 0.1 m) rolling at v = 0.5, 1, 3 m/s on
             a rough floor (mu = 0.05, 0.3, 1) into a frictionless wall (e
             = 0.45, 0.5, 0.8, 1), by taylor, rk4 and adaptive: the wall
             reverses vx to -e v and leaves the spin; the floor's friction
             (mu m g) then brings it to rolling at t_hit + 2 (1 + e) v/(7 mu
             g), at v (2 - 5e)/7 (the angular momentum about the contact
             point kept), x by hand throughout.  The floor's element stayed
             stuck after the wall's impact with no friction force: the ball
             slid back at -e v for ever (exit 0).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main  # noqa: E402
# the twelfth core pass's nsm.compile with the program cache in the case's folder
from twelfth_pass_core_test import compiled  # noqa: E402

G = 9.81

# a ball bouncing to rest beside a free mass P, pushed by 1 N while
# sin(w t) > 1/2 (its weight balanced by 9.81 N)
OSC = '''model oscswitch "a ball to rest beside a mass pushed by an oscillating switch"
param w = 300 rad/s
param e = 0.5
mass B = 1 kg
mass P = 1 kg
gravity 9.81 m/s^2
force on P = if sin(w*t) > 0.5 then 9.81 N + 1 N else 9.81 N
gap floor: B.x >= 0 m, impact(e = e)
init B.x = 1 m
simulate t_end = 2 s
output every 1 ms: B.x, P.x, P.v
'''
# the same with a pendulum Q, which makes the model nonlinear (taylor)
OSCNL = OSC.replace("model oscswitch ", "model oscswitchnl ").replace(
    "mass P = 1 kg\n", "mass P = 1 kg\nmass Q = 1 kg\nforce on Q = -1 N*sin(Q.x/1 m)\n").replace(
    "init B.x = 1 m", "init B.x = 1 m, Q.x = 1 m")

# a ball bouncing to rest beside a fast oscillator M with Coulomb friction
ZF = '''model zenofric "a ball to rest beside a fast oscillator with friction"
param w = 300 rad/s
param e = 0.5
mass B = 1 kg
mass M = 1 kg
spring ground -- M, k = 1 kg*w^2
friction f: M -- ground, mu = 0.01, normal = 9.81 N
gravity 9.81 m/s^2
gap floor: B.x >= 0 m, impact(e = e)
init B.x = 1 m, M.x = 0.1 m
simulate t_end = 3 s
output every 1 ms: B.x, M.x, M.v
'''


def on_time(t, w):
    """The measure of {s in [0, t]: sin(w s) > 1/2}: pi/6 to 5 pi/6 of
    every period 2 pi/w."""
    per = 2 * math.pi / w
    n = math.floor(t / per)
    r = t - n * per
    a, b = math.pi / 6 / w, 5 * math.pi / 6 / w
    return n * (b - a) + min(max(r - a, 0.0), b - a)


def switch_times(w, t_end):
    """The instants where sin(w t) crosses 1/2 in (0, t_end]."""
    per, out, n = 2 * math.pi / w, [], 0
    while n * per < t_end:
        out += [n * per + c / w for c in (math.pi / 6, 5 * math.pi / 6) if n * per + c / w <= t_end]
        n += 1
    return out


def osc_check(m, meth, w, e, t_end=2.0):
    """P's speed and the switch instants of one run (to t_end)."""
    r = m.run(method=meth, params={"w": w, "e": e}, t_end=t_end)
    err = max(abs(v - on_time(t, w)) for t, v in zip(r.t, r["P.v"]))
    got = [float(x["t"]) for x in r.events if x["kind"] == "time"]
    want = switch_times(w, t_end)
    terr = max(abs(a - b) for a, b in zip(got, want)) if len(got) == len(want) else math.inf
    print("  push of 1 N while sin(%g t) > 1/2 beside a ball (e = %g), %s -> P.v within %.3g "
          "m/s of its time on, %d switches (closed form %d), instants within %.3g s"
          % (w, e, meth, err, len(got), len(want), terr))
    check(err < 1e-9 and terr < 1e-9, "push while sin(%g t) > 1/2 (e = %g, %s): P.v is the "
          "push's time on, every switch at its instant" % (w, e, meth))
    return r


def case_oscswitch(tmp):
    """A push switched by an oscillating condition, by every method."""
    m = compiled(tmp, "oscswitch", OSC)
    for meth in ("exact", "rk4", "adaptive"):
        for w in (10.0, 300.0, 3000.0, 30000.0):
            for e in (0.3, 0.8, 0.95):
                osc_check(m, meth, w, e)
    m = compiled(tmp, "oscswitchnl", OSCNL)
    for meth in ("taylor", "rk4"):
        for w in (30.0, 3000.0):
            osc_check(m, meth, w, 0.5)


def case_osczeno(tmp):
    """A push switched by an oscillating condition across a Zeno point."""
    m = compiled(tmp, "oscswitch", OSC)
    for w, e in ((3000.0, 0.95), (30000.0, 0.8)):
        tinf = math.sqrt(2 / G) * (1 + 2 * e / (1 - e))
        for meth in ("exact", "rk4", "adaptive"):
            r = osc_check(m, meth, w, e, tinf + 1)
            zeno = [float(x["t"]) for x in r.events if x["kind"] == "zeno"]
            print("  ... the ball's zeno at %s (t_inf = %.17g s)" % (zeno, tinf))
            check(len(zeno) == 1 and abs(zeno[0] - tinf) < 1e-9, "ball's zeno at t_inf beside "
                  "the push switched by sin(%g t) > 1/2 (e = %g, %s)" % (w, e, meth))


def zf_x(t, w, mu_n=0.01 * G, x0=0.1):
    """x(t) of m x'' = -k x - m g - mu N sign(x') (m = 1 kg, k = w^2) from x0
    at rest: half-periods pi/w about x_e +- d (x_e = -g/k, d = mu N/k), the
    amplitude falling by 2 d each; None once it sticks."""
    k = w * w
    xe, d = -G / k, mu_n / k
    c, a, sg, half = xe + d, x0 - (xe + d), -1, math.pi / w
    while t > half:
        xend = c - a if sg < 0 else c + a
        sg = -sg
        c = xe - d if sg > 0 else xe + d
        if (sg > 0 and xend >= c) or (sg < 0 and xend <= c):
            return None
        a = abs(xend - c)
        t -= half
    return c + (a if sg < 0 else -a) * math.cos(w * t)


def case_zenofric(tmp):
    """A Zeno tail beside an oscillator whose friction reverses in it."""
    m = compiled(tmp, "zenofric", ZF)
    tinf = 3 * math.sqrt(2 / G)
    for meth in ("exact", "rk4", "adaptive"):
        for w in (300.0, 3000.0):
            r = m.run(method=meth, params={"w": w})
            err = max(abs(x - zf_x(t, w)) for t, x in zip(r.t, r["M.x"]))
            zeno = [float(x["t"]) for x in r.events if x["kind"] == "zeno"]
            # rk4's default step is 0.1/nu: its error grows as w t
            tol = 1e-9 if meth == "exact" else 1e-5
            print("  ball to rest (e = 0.5) beside an oscillator (w = %g rad/s) reversing under "
                  "friction, %s -> x within %.3g m of its closed form, zeno at %s (t_inf = "
                  "%.17g s)" % (w, meth, err, zeno, tinf))
            check(err < tol and len(zeno) == 1 and abs(zeno[0] - tinf) < 1e-9,
                  "ball's Zeno tail beside a reversing oscillator (w = %g, %s): the oscillator "
                  "by its closed form, the ball's zeno at t_inf" % (w, meth))


def train_text(n):
    """A train of n beads P1..Pn, masses m1.., restitutions e1.. between
    neighbours, P1 striking the others (at rest, touching) at 1 m/s."""
    lines = ['model train%d "a train of %d beads, mixed masses and restitutions"' % (n, n)]
    lines += ["param m%d = 1 kg" % (i + 1) for i in range(n)]
    lines += ["param e%d = 0.5" % (i + 1) for i in range(n - 1)]
    lines += ["mass P%d = m%d" % (i + 1, i + 1) for i in range(n)]
    lines += ["gap G%d: P%d.x - P%d.x >= 0, impact(e = e%d)" % (i + 1, i + 2, i + 1, i + 1)
              for i in range(n - 1)]
    lines += ["init P1.x = -0.1 m, P1.v = 1 m/s", "simulate t_end = 0.2 s",
              "output every 10 ms: " + ", ".join("P%d.v" % (i + 1) for i in range(n))]
    return "\n".join(lines) + "\n"


def sequential_limit(ms, es, v):
    """The velocities after pair collisions at one instant, the fastest
    closing first (the lower contact on a tie), each by Newton's law, until
    none closes faster than 1e-15 m/s; None if that takes 3e6 collisions."""
    v = list(v)
    for _ in range(3000000):
        u, i = max((v[k] - v[k + 1], -k) for k in range(len(v) - 1))
        if u <= 1e-15:
            return v
        i = -i
        p = (1 + es[i]) * u / (1 / ms[i] + 1 / ms[i + 1])
        v[i] -= p / ms[i]
        v[i + 1] += p / ms[i + 1]
    return None


def train_check(m, ms, es, meths, tol):
    """One train's velocities after the instant, by each method."""
    want = sequential_limit(ms, es, [1.0] + [0.0] * (len(ms) - 1))
    if want is None:
        print("  train %s, e %s: no limit by hand within 3e6 collisions, skipped" % (ms, es))
        return 0
    p = {"m%d" % (i + 1): x for i, x in enumerate(ms)}
    p.update({"e%d" % (i + 1): x for i, x in enumerate(es)})
    for meth in meths:
        r = m.run(method=meth, params=p)
        got = [r["P%d.v" % (i + 1)][-1] for i in range(len(ms))]
        err = max(abs(a - b) for a, b in zip(got, want))
        print("  train of masses %s, e %s struck at 1 m/s, %s -> velocities %s (sequence's "
              "limit %s), within %.3g m/s" % (ms, es, meth, ["%.9g" % x for x in got],
                                                ["%.9g" % x for x in want], err))
        check(err < tol, "train %s, e %s (%s): the sequential law's limit" % (ms, es, meth))
    return 1


def case_beads(tmp):
    """Trains of beads with mixed masses and restitutions, sequential law."""
    import random
    m = compiled(tmp, "train4", train_text(4))
    train_check(m, [10.0, 0.5, 10.0, 1.0], [0.0, 0.25, 0.8], ("exact", "rk4", "adaptive"), 1e-9)
    m = compiled(tmp, "train5", train_text(5))
    rng = random.Random(19)
    done = 0
    while done < 120:
        ms = [rng.choice([0.13, 0.47, 1.0, 2.3, 3.7, 10.1]) for _ in range(5)]
        es = [rng.choice([0.0, 0.0, 0.1, 0.25, 0.5, 0.8, 0.95, 1.0]) for _ in range(4)]
        done += train_check(m, ms, es, ("exact", "rk4") if done % 4 == 0 else ("exact",), 1e-4)


# a ball dropped from h onto a floor, elastic
LONG = '''model longbounce "an elastic ball bouncing ten thousand times"
param h = 1 mm
mass B = 1 kg
gravity 9.81 m/s^2
gap floor: B.x >= 0 m, impact(e = 1)
init B.x = h
simulate t_end = 286 s
output every 1 s: B.x, B.v, energy.kinetic, energy.potential
'''


def long_check(m, meth, h, t_end, every):
    """Impact times and energy of one elastic run."""
    r = m.run(method=meth, params={"h": h}, t_end=t_end, every=every)
    t1 = math.sqrt(2 * h / G)
    imp = [float(x["t"]) for x in r.events if x["kind"] == "impact"]
    n_want = int((t_end / t1 + 1) / 2)      # t1 (1 + 2n) <= t_end
    terr = max(abs(a - t1 * (1 + 2 * n)) for n, a in enumerate(imp))
    eerr = max(abs(k + p - G * h) for k, p in zip(r["energy.kinetic"], r["energy.potential"]))
    print("  elastic ball from %g m for %g s, every %g s, %s -> %d impacts (closed form %d), "
          "times within %.3g s of t1 (1 + 2n), energy within %.3g J of m g h"
          % (h, t_end, every, meth, len(imp), n_want, terr, eerr))
    check(len(imp) == n_want and terr < 1e-8 and eerr < 1e-10 * G * h,
          "elastic ball from %g m for %g s (every %g s, %s): every impact at t1 (1 + 2n), "
          "energy kept" % (h, t_end, every, meth))


def case_long(tmp):
    """An elastic ball bouncing for 1e4 impacts, and sampled long runs."""
    m = compiled(tmp, "longbounce", LONG)
    for meth in ("exact", "rk4", "adaptive"):
        long_check(m, meth, 1e-3, 286.0, 1.0)
    for h in (1e-3, 3e-3, 1e-2):
        for every in (1.0, 0.3, 0.05):
            for meth in ("rk4", "adaptive"):
                long_check(m, meth, h, 60.0, every)


# a solid sphere rolling on a rough floor into a frictionless wall at x = 0.5 m
SPACEWALL = '''model spacewall "a rolling ball into a frictionless wall"
param m = 2 kg
param r = 0.1 m
param mu = 0.3
param v = 1 m/s
param ew = 0.5
gravity G = (0 m/s^2, 0 m/s^2, -9.81 m/s^2)
rigid B: mass = m, inertia = (0.4*m*r^2, 0.4*m*r^2, 0.4*m*r^2)
plane floor: normal = (0, 0, 1), offset = 0 m
plane wall: normal = (-1, 0, 0), offset = -0.5 m
gap F: B.sphere(radius = r) above floor, impact(e = 0.5)
gap W: B.sphere(radius = r) above wall, impact(e = ew)
friction FF: normal = gap F, mu = mu, et = 0
init B.z = r, B.vx = v, B.omega = (0 rad/s, v/r, 0 rad/s)
simulate t_end = 2 s
output every 1 ms: B.x, B.vx, B.w2, B.z
'''


def case_spacewall(tmp):
    """A ball rolling on a rough floor into a frictionless wall."""
    m = compiled(tmp, "spacewall", SPACEWALL)
    for ew in (0.45, 0.5, 0.8, 1.0):
        for mu in (0.05, 0.3, 1.0):
            for v in (0.5, 1.0, 3.0):
                thit = 0.4 / v
                troll = thit + 2 * (1 + ew) * v / (7 * mu * G)
                vf = v * (2 - 5 * ew) / 7
                for meth in ("taylor", "rk4", "adaptive"):
                    r = m.run(method=meth, params={"ew": ew, "mu": mu, "v": v}, t_end=troll + 0.5)

                    def x_at(t):
                        """x(t) by hand: rolling, the wall, sliding, rolling."""
                        if t <= thit:
                            return v * t
                        s = min(t, troll) - thit
                        x = 0.4 - ew * v * s + 0.5 * mu * G * s * s
                        return x + (vf * (t - troll) if t > troll else 0)
                    xerr = max(abs(x - x_at(t)) for t, x in zip(r.t, r["B.x"]))
                    st = [float(e["t"]) for e in r.events if e["kind"] == "stick" and e["t"] > 0]
                    print("  ball rolling at %g m/s into a wall (e = %g), floor mu = %g, %s -> "
                          "vx %.12g m/s (by hand %.12g), omega_y %.12g rad/s, rolling again at %s "
                          "(by hand %.12g s), x within %.3g m" % (v, ew, mu, meth, r["B.vx"][-1],
                                                                 vf, r["B.w2"][-1], st, troll, xerr))
                    check(abs(r["B.vx"][-1] - vf) < 1e-7 * v and abs(r["B.w2"][-1] - vf / 0.1)
                          < 1e-6 * v / 0.1 and len(st) == 1 and abs(st[0] - troll) < 1e-6 and
                          xerr < 1e-6, "ball rolling at %g m/s into a wall (e = %g, mu = %g, %s): "
                          "slides back and rolls at v (2 - 5e)/7" % (v, ew, mu, meth))


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-nineteenth-core-", case_arg=2))
