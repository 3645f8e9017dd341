#!/usr/bin/env python3
"""A twenty-second hostile pass on contacts, events and time switches:
trains under every impact law, Zeno on moving floors, switches of every
form, every answer against a closed form or an exact invariant derived
here.

    tests/reliability/twentysecond_pass_contact_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings_energetic  eight beads of 0.39 g to 170 kg (e = 1 to 0, the
                law energetic) meeting in one instant that the law resolves
                again and again, by exact, rk4 and adaptive: no gap below
                -1e-12 m at any step, momentum kept, no energy gained.
                Five beads of 0.5 to 1264 kg (two trains meeting), by each
                method within 20,000 steps: the end reached, the same
                invariants.  Failed before: exact left a contact of the
                eight approaching at 1.8e-10 m/s, within the velocity
                tolerance, after the law's last impulses, and the beads
                drifted 3e-11 m into each other (silent); rk4 and adaptive
                stopped moving at t = 0.122 s on the five (a hang; the step
                cap here).
  findings_origin  eight beads of 0.035 to 1362 kg (energetic) whose
                instants near x = 0.1 m leave a pair touching within
                rounding, then carried through x = 0 at t = 0.13 s, by
                exact, rk4 and adaptive: the end reached, momentum kept, no
                energy gained, no gap below -1e-11 m (the band where they
                met).  Failed before: exact stopped at 0.13 s on "the
                contact is penetrated (gap -3.87e-14 m) at the start of a
                step: an impact was missed" (loud; the band, relative to the
                positions, had shrunk to 2.4e-14 m at x = 0).
  findings_switchnoise  a free mass pushed while (t + 1)^2 - t^2 - 2 t -
                1 + c (t - 0.5) >= 0 (terms cancelling to their rounding),
                by exact, rk4 and adaptive within 200,000 steps: for c =
                1e-3, 1e-6, 1e-9 the push from 0.5 s (v = t - 0.5) to the
                end; for c = 0 (an identity) and 1e-13 (its zero decided by
                rounding to 4 ms) a refusal naming switch sw0 and rounding.
                Failed before: rk4 and adaptive stopped moving at t = 1.001
                s (a sample one ulp away; a hang, the step cap here), and
                the identity took every method's steps down to 1e-27 s at
                t = 0 until the cap of 1e8 steps (a quarter of an hour).
  findings_simulgain  three touching beads of 1, 1.26 and 2 kg (e = 1),
                the middle one moving into the last at 1.872 m/s, under the
                simultaneous, sequential and energetic laws by exact, rk4
                and adaptive: the kinetic energy kept, or (the simultaneous
                law) a refusal naming the energy it would add.  Failed
                before: the simultaneous law left 2.51213 J from 2.20776 J
                (13.8 % gained, silent, exit 0).
  kept_risingfloor  a ball dropped from 1 m onto a floor moving at c =
                0.5, -0.2, 0, 1e-9 and 3 m/s (e = 0.5, 0.8, 0, 0.95), by
                exact, rk4 and adaptive: every impact at its instant, the
                Zeno point at t1 + 2 e w / (g (1 - e)) (w the speed relative
                to the floor), then riding it.  Passed (kept).
  kept_strobe   the ball of kept_risingfloor (c = 0.5, -0.2, 3 m/s, e =
                0.5, 0.8) with stroboscopic sections of period (t_inf +
                d)/k, k = 1, 2, 7, by exact, rk4 and adaptive: d = 1e-10 s,
                every record by hand; d = -1e-9 s, refused as inside the
                jumped cascade, naming it.  Passed (kept).
  kept_trains   12 free trains of 2 to 8 beads drawn at random (seed 3:
                masses 1e-4 to 1e4 kg, e = 0, 1 or random per contact,
                beads touching or apart, speeds of either sign) under the
                sequential, simultaneous and energetic laws, by exact, rk4
                and adaptive: momentum kept, no energy gained at any
                sample, no gap below -1e-12 m, an elastic train's energy
                kept.  Passed (kept).
  kept_switchforms, kept_switchforms2  a ball dropped from g/2 m (first
                impact at 1 s), lifted by 2 m g while a condition holds,
                written in 17 forms that all mean t >= T (affine as nsmc
                marks them and affine in disguise; then t^2, t^3, exp, sqrt,
                max, abs, and, or, (t - T)^3), T = 1 s (the impact's
                instant) and 0.5 s every 1 ms, 1 and 1.3 s every 0.37 s, by
                exact, rk4 and adaptive: a switch at T and the rise at g
                from the state at T by hand.  Passed (kept).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, compiled  # noqa: E402

G = 9.81
METHODS = ("exact", "rk4", "adaptive")


def train_text(name, masses, es, x0, v0, law, every="5 ms", t_end="1 s"):
    """A train of beads (masses, their initial positions and speeds), gap i
    between beads i and i + 1 with restitution es[i] under the law."""
    kk = ", stiffness = 1e6, exponent = 1.5" if law == "energetic" else ""
    n = len(masses)
    lines = ['model %s "a train of beads"' % name]
    lines += ["mass P%d = %r kg" % (i + 1, m) for i, m in enumerate(masses)]
    lines += ["gap G%d: P%d.x - P%d.x >= 0 m, impact(e = %r%s)" % (i + 1, i + 2, i + 1, es[i], kk)
              for i in range(n - 1)]
    lines += ["init " + ", ".join("P%d.x = %r m, P%d.v = %r m/s" % (i + 1, x0[i], i + 1, v0[i])
                                  for i in range(n))]
    lines += ["simulate t_end = %s, dt = 1 ms, impact_law = %s" % (t_end, law),
              "output every %s: " % every + ", ".join("P%d.x, P%d.v" % (i + 1, i + 1)
                                                      for i in range(n))]
    return "\n".join(lines) + "\n"


def ran(m, label, **kw):
    """m.run(**kw); a refusal fails the case, naming label and the message."""
    import nsm
    try:
        return m.run(**kw)
    except nsm.Error as ex:
        print("  %s -> refused: %s" % (label, str(ex)[:300]))
        check(False, "%s: the run refused (%s)" % (label, str(ex)[:300]))


def train_invariants(r, masses, v0):
    """(momentum error over the scale, largest energy gain over E0, least
    gap) of a run of a free train: no force acts, so momentum is kept and
    impacts never add energy."""
    n = len(masses)
    vs = [r["P%d.v" % (i + 1)] for i in range(n)]
    xs = [r["P%d.x" % (i + 1)] for i in range(n)]
    p0 = sum(m * v for m, v in zip(masses, v0))
    scale = sum(m * abs(v) for m, v in zip(masses, v0)) or 1.0
    E0 = sum(m * v * v / 2 for m, v in zip(masses, v0)) or 1.0
    perr = max(abs(sum(masses[i] * vs[i][j] for i in range(n)) - p0)
               for j in range(len(r.t))) / scale
    E = [sum(masses[i] * vs[i][j] ** 2 / 2 for i in range(n)) for j in range(len(r.t))]
    gain = max([E[0] * 2 / E0 - 2] + [(E[j] - E[j - 1]) / E0 for j in range(1, len(E))])
    gmin = min(min(xs[i + 1] - xs[i]) for i in range(n - 1))
    return perr, gain, gmin


def case_findings_energetic(tmp):
    """Eight beads whose instant the energetic law resolves many times."""
    masses = [58.92161969381017, 170.16028449437908, 0.014523443834305965,
              0.0003866364485941744, 1.0, 0.013081756665812624, 0.5, 1.0]
    es = [1.0, 1.0, 1.0, 0.51, 0.0, 0.355, 0.0]
    x0 = [0.0, 0.0, 0.0, 0.05, 0.06, 0.07, 0.07, 0.07]
    v0 = [1.0, 0.0, 0.797, -1.0, 0.0, -1.326, -0.921, -1.0]
    m = compiled(tmp, "lzb8", train_text("lzb8", masses, es, x0, v0, "energetic"))
    for meth in METHODS:
        r = ran(m, "eight beads by %s" % meth, method=meth, every=0)
        perr, gain, gmin = train_invariants(r, masses, v0)
        print("  eight beads (0.39 g to 170 kg), energetic, %s -> momentum within %.3g, energy "
              "gained %.3g, least gap %.3g m over %d steps"
              % (meth, perr, gain, gmin, len(r.t)))
        check(perr < 1e-12 and gain < 1e-12 and gmin > -1e-12,
              "eight beads by the energetic law (%s): no contact passed into, momentum kept, no "
              "energy gained" % meth)
    # five beads, two trains meeting: the instant at 0.0524 s left contacts
    # closing at 1e-13 m/s, and rk4's and adaptive's steps stopped moving at
    # t = 0.122 s (a hang: 2,878 steps there within the cap of 3,000)
    masses = [2.0, 0.5, 13.090667441535835, 2.0, 1263.9751237397154]
    es = [0.469, 0.0, 0.0, 0.233]
    x0 = [0.0, 0.05, 0.1, 0.11, 0.12]
    v0 = [1.514, 1.0, 1.0, 0.0, -1.0]
    m = compiled(tmp, "lzb5", train_text("lzb5", masses, es, x0, v0, "energetic"))
    for meth in METHODS:
        r = ran(m, "five beads by %s" % meth, method=meth, max_steps=20000)
        perr, gain, gmin = train_invariants(r, masses, v0)
        print("  five beads (0.5 to 1264 kg), energetic, %s -> to t = %g s in %d steps, momentum "
              "within %.3g, energy gained %.3g, least gap %.3g m"
              % (meth, r.t_reached, r.steps, perr, gain, gmin))
        check(r.t_reached == 1 and perr < 1e-12 and gain < 1e-12 and gmin > -1e-12,
              "five beads by the energetic law (%s): the run's end reached, no contact passed "
              "into, momentum kept, no energy gained" % meth)


def case_findings_origin(tmp):
    """A pair left touching within rounding, carried through x = 0 (exact)."""
    masses = [60.82703535108798, 2.0, 2.0, 1.0, 2.0, 0.03529563688401174, 1362.4345947079084, 0.5]
    es = [0.0, 1.0, 0.174, 0.51, 0.0, 1.0, 0.797]
    x0 = [0.0, 0.01, 0.02, 0.03, 0.08, 0.08, 0.13, 0.18]
    v0 = [0.0, -1.0, 1.0, -1.0, -1.0, -0.597, -1.0, 1.0]
    m = compiled(tmp, "origin", train_text("origin", masses, es, x0, v0, "energetic"))
    for meth in METHODS:
        r = ran(m, "eight beads through x = 0 by %s" % meth, method=meth, every=0)
        perr, gain, gmin = train_invariants(r, masses, v0)
        print("  eight beads (0.035 to 1362 kg), energetic, crossing x = 0 at 0.13 s, %s -> to "
              "t = %g s, momentum within %.3g, energy gained %.3g, least gap %.3g m"
              % (meth, r.t_reached, perr, gain, gmin))
        # the gaps' rounding band where the beads met (x about 0.1 m) is
        # 1e-10 of their positions: 2e-11 m
        check(r.t_reached == 1 and perr < 1e-12 and gain < 1e-12 and gmin > -1e-11,
              "eight beads through x = 0 (%s): the run's end reached, no contact passed into "
              "beyond rounding, momentum kept, no energy gained" % meth)


# a free mass pushed by 1 N while a switch holds whose terms cancel to
# their rounding: (t + 1)^2 - t^2 - 2 t - 1 is 0, so the condition is
# c (t - T) >= 0, on from T (c > 0); with c = 0 it is an identity, its
# sign the rounding's
NOISY = '''model noisy "a switch whose terms cancel"
param c = 1e-3
param T = 0.5 s
mass B = 1 kg
force on B = if (t + 1 s)*(t + 1 s) - t*t - 2 s*t - 1 s*s + c*1 s*(t - T) >= 0 s*s then 1 N else 0 N
simulate t_end = 1.6 s, dt = 1 ms
output every 1 ms: B.x, B.v
'''


def case_findings_switchnoise(tmp):
    """Switches whose values are rounding: answered or refused, never a hang."""
    import nsm
    m = compiled(tmp, "noisy", NOISY)
    for meth in METHODS:
        for c in (1e-3, 1e-6, 1e-9):
            label = "push while (t + 1)^2 - t^2 - 2 t - 1 + %g (t - 0.5) >= 0, %s" % (c, meth)
            r = ran(m, label, method=meth, params={"c": c}, max_steps=200000)
            err = max(abs(v - max(0.0, t - 0.5)) + abs(x - max(0.0, t - 0.5) ** 2 / 2)
                      for t, x, v in zip(r.t, r["B.x"], r["B.v"]))
            print("  %s -> to t = %g s in %d steps, (x, v) within %.3g of the push from 0.5 s"
                  % (label, r.t_reached, r.steps, err))
            check(r.t_reached == 1.6 and err < 1e-9, label + ": the push from T, to the end")
        for c in (0.0, 1e-13):
            label = "push while (t + 1)^2 - t^2 - 2 t - 1 + %g (t - 0.5) >= 0, %s" % (c, meth)
            try:
                r = m.run(method=meth, params={"c": c}, max_steps=200000)
                msg = None
            except nsm.Error as ex:
                msg = str(ex)
            print("  %s -> %s" % (label, "refused: " + msg[:200] if msg else "ran"))
            check(msg is not None and "time switch sw0" in msg and "rounding" in msg,
                  label + ": refused, naming the switch and its rounding")


def case_kept_trains(tmp):
    """Random free trains under the three impact laws: the invariants."""
    import random
    rnd = random.Random(3)
    for k in range(12):
        n = rnd.choice((2, 3, 4, 5, 6, 8))
        masses = [10 ** rnd.uniform(-4, 4) if rnd.random() < 0.5 else rnd.choice((1.0, 2.0, 0.5))
                  for _ in range(n)]
        es = [rnd.choice((0.0, 1.0, round(rnd.random(), 3))) for _ in range(n - 1)]
        law = rnd.choice(("sequential", "simultaneous", "energetic"))
        x0 = [0.0]
        for i in range(n - 1):
            x0.append(x0[-1] + rnd.choice((0.0, 0.0, 0.01, 0.05)))
        v0 = [rnd.choice((0.0, 0.0, 1.0, -1.0, round(rnd.uniform(-2, 2), 3))) for _ in range(n)]
        m = compiled(tmp, "train%d" % k, train_text("train%d" % k, masses, es, x0, v0, law))
        E0 = sum(a * b * b / 2 for a, b in zip(masses, v0))
        for meth in METHODS:
            label = "train %d: %d beads of %.3g to %.3g kg, e = %s, %s, %s" % (
                k, n, min(masses), max(masses), es, law, meth)
            r = ran(m, label, method=meth)
            perr, gain, gmin = train_invariants(r, masses, v0)
            Ee = sum(masses[i] * r["P%d.v" % (i + 1)][-1] ** 2 / 2 for i in range(n))
            lost = (E0 - Ee) / (E0 or 1.0)
            elastic = all(e == 1.0 for e in es) and law != "energetic"
            print("  %s -> momentum within %.3g, energy gained %.3g, least gap %.3g m, energy "
                  "lost %.3g" % (label, perr, gain, gmin, lost))
            check(perr < 1e-12 and gain < 1e-12 and gmin > -1e-12 and
                  (not elastic or abs(lost) < 1e-11),
                  label + ": momentum kept, no energy gained, no contact passed into")


def case_findings_simulgain(tmp):
    """The simultaneous law never adds energy silently."""
    import nsm
    # three touching beads, the middle one moving into the last: every
    # contact elastic, so every law that is energy-consistent keeps the
    # kinetic energy; the generalised Newton law, the separating contact
    # taken at e = 0, gave 2.51213 J from 2.20776 J (by hand: B and A move
    # together at -0.32518 m/s, C at 1.54682 m/s)
    masses, v0 = [1.0, 1.26, 2.0], [0.0, 1.872, 0.0]
    E0 = sum(m * v * v / 2 for m, v in zip(masses, v0))
    for law in ("simultaneous", "sequential", "energetic"):
        m = compiled(tmp, "gain_" + law, train_text("gain_" + law, masses, [1.0, 1.0],
                                                     [0.0, 0.0, 0.0], v0, law, t_end="0.1 s"))
        for meth in METHODS:
            label = "beads of 1, 1.26, 2 kg touching, e = 1, the middle at 1.872 m/s, %s, %s" % (
                law, meth)
            try:
                r = m.run(method=meth)
                msg = None
            except nsm.Error as ex:
                msg = str(ex)
            if msg is not None:
                print("  %s -> refused: %s" % (label, msg[:220]))
                check(law == "simultaneous" and "adds energy" in msg and "simultaneous" in msg,
                      label + ": refused only by the simultaneous law, naming the energy it adds")
                continue
            perr, gain, gmin = train_invariants(r, masses, v0)
            E = sum(mm * r["P%d.v" % (i + 1)][-1] ** 2 / 2 for i, mm in enumerate(masses))
            print("  %s -> kinetic energy %.9g J (at the start %.9g J), momentum within %.3g"
                  % (label, E, E0, perr))
            tol = 1e-6 if law == "energetic" else 1e-12
            check(abs(E - E0) <= tol * E0 and perr < 1e-12,
                  label + ": the kinetic energy kept (elastic contacts), momentum kept")


MF = '''model mf "a ball dropped onto a floor rising at c"
param c = 0.5 m/s
param e = 0.5
mass B = 1 kg
gravity 9.81 m/s^2
gap floor: B.x >= c*t, impact(e = e)
init B.x = 1 m
simulate t_end = 3 s, dt = 1 ms
output every 1 ms: B.x, B.v
'''


def case_kept_risingfloor(tmp):
    """Zeno on a moving floor: impacts, the accumulation point, the ride."""
    m = compiled(tmp, "mf", MF)
    for meth in METHODS:
        for c in (0.5, -0.2, 0.0, 1e-9, 3.0):
            for e in (0.5, 0.8, 0.0, 0.95):
                # relative to the floor the ball falls at g from rest at 1 m
                # moving at -c: it meets the floor at t1 at the relative
                # speed w, rebounds at e w, e^2 w, ... every 2 e^k w / g
                w = math.sqrt(c * c + 2 * G)
                t1 = (-c + w) / G
                tinf = t1 + 2 * e * w / (G * (1 - e))
                r = ran(m, "floor at %g m/s, e = %g, %s" % (c, e, meth), method=meth,
                        params={"c": c, "e": e}, t_end=tinf + 0.5)
                imps = [float(x["t"]) for x in r.events if x["kind"] == "impact"]
                zeno = [float(x["t"]) for x in r.events if x["kind"] == "zeno"]
                tk, uk, want = t1, e * w, [t1]
                while len(want) < len(imps):
                    tk, uk = tk + 2 * uk / G, uk * e
                    want.append(tk)
                terr = max(abs(a - b) for a, b in zip(imps, want))
                zerr = abs((zeno or imps[-1:])[0] - tinf)
                ride = max(abs(x - c * t) + abs(v - c)
                           for t, x, v in zip(r.t, r["B.x"], r["B.v"]) if t > tinf + 1e-3)
                print("  floor at %g m/s, e = %g, %s -> %d impacts within %.3g s, Zeno point "
                      "within %.3g s of %.15g, riding within %.3g"
                      % (c, e, meth, len(imps), terr, zerr, tinf, ride))
                check(terr < 1e-9 and zerr < 1e-8 and ride < 1e-8 and (e == 0) == (not zeno),
                      "ball on a floor at %g m/s, e = %g (%s): impacts, Zeno point and ride by hand"
                      % (c, e, meth))


# a ball dropped from g/2 m (its first impact at t = 1 s) lifted by 2 m g
# while COND holds, COND written in forms that all mean t >= T for t >= 0
BALL = '''model lifted "a ball dropped onto a floor, lifted from T"
param T = 1 s
param e = 0.5
mass B = 1 kg
gravity 9.81 m/s^2
force on B = if COND then 19.62 N else 0 N
gap floor: B.x >= 0 m, impact(e = e)
init B.x = 4.905 m
simulate t_end = 1.6 s, dt = 1 ms
output every EVERY: B.x, B.v
'''
# affine in t (marked so by nsmc), affine in disguise, and not affine
FORMS = ("t >= T", "2*t >= 2*T", "t - T >= 0 s", "T <= t", "not t < T", "-t <= -T",
         "t/T >= 1", "t + 0*t*t/1 s >= T", "t*t >= T*T", "t*t*t >= T*T*T",
         "exp(t/1 s) >= exp(T/1 s)", "sqrt(t*1 s) >= sqrt(T*1 s)", "max(t, T/2) >= T",
         "abs(t) >= T", "t >= T and t >= 0.1*T", "t >= T or t > 100 s",
         "(t - T)*(t - T)*(t - T) >= 0 s*s*s")


def ball_at(T, e, h=4.905):
    """(x, v) at T of a ball dropped from h onto a floor (restitution e),
    bounce by bounce."""
    v1, t1 = math.sqrt(2 * G * h), math.sqrt(2 * h / G)
    if T < t1:
        return h - G * T * T / 2, -G * T
    tk, vk = t1, e * v1
    while tk + 2 * vk / G < T:
        tk, vk = tk + 2 * vk / G, vk * e
    tau = T - tk
    return vk * tau - G * tau * tau / 2, vk - G * tau


def floor_state(t, c, e):
    """(x, v) at t of the ball of MF (floor at c m/s, restitution e), bounce
    by bounce; riding the floor from the Zeno point."""
    w = math.sqrt(c * c + 2 * G)
    t1 = (-c + w) / G
    if t >= t1 + 2 * e * w / (G * (1 - e)):
        return c * t, c
    if t < t1:
        return 1 - G * t * t / 2, -G * t
    tk, uk = t1, e * w
    while tk + 2 * uk / G < t and uk > 1e-300:
        tk, uk = tk + 2 * uk / G, uk * e
    tau = t - tk
    return c * t + uk * tau - G * tau * tau / 2, c + uk - G * tau


def case_kept_strobe(tmp):
    """Stroboscopic sections about a moving floor's Zeno point."""
    import nsm
    m = compiled(tmp, "mf", MF)
    for meth in METHODS:
        for c in (0.5, -0.2, 3.0):
            for e in (0.5, 0.8):
                w = math.sqrt(c * c + 2 * G)
                tinf = (-c + w) / G + 2 * e * w / (G * (1 - e))
                for k in (1, 2, 7):
                    for d in (1e-10, -1e-9):
                        per = (tinf + d) / k
                        label = ("floor at %g m/s, e = %g, strobe every (t_inf %+g s)/%d, %s"
                                 % (c, e, d, k, meth))
                        try:
                            rec = m.section("period:%.17g" % per, t_end=1.5 * tinf,
                                            params={"c": c, "e": e}, method=meth)
                        except nsm.Error as ex:
                            print("  %s -> refused: %s" % (label, str(ex)[:160]))
                            check(d < 0 and "Zeno cascade" in str(ex), label + ": refused only "
                                  "inside the jumped cascade, naming it")
                            continue
                        err = max(max(abs(r[2] - floor_state(r[0], c, e)[0]),
                                      1e-3 * abs(r[3] - floor_state(r[0], c, e)[1])) for r in rec)
                        terr = max(abs(r[0] - i * per) for i, r in enumerate(rec))
                        want = math.floor(1.5 * tinf / per) + 1
                        print("  %s -> %d records (by hand %d), states within %.3g, times within "
                              "%.3g s" % (label, len(rec), want, err, terr))
                        check(len(rec) == want and err < 1e-9 and terr <= 1e-15 * tinf,
                              label + ": every record by hand")


def switchforms(tmp, forms):
    """One lift written in several forms: the same rise from T."""
    for n, cond in forms:
        for k, every in enumerate(("1 ms", "0.37 s")):
            m = compiled(tmp, "form%d_%d" % (n, k), BALL.replace("COND", cond).replace("EVERY", every))
            for meth in METHODS:
                for T in ((1.0, 0.5) if k == 0 else (1.0, 1.3)):
                    r = ran(m, "lift while %s, T = %g s, every %s, %s" % (cond, T, every, meth),
                            method=meth, params={"T": T})
                    xT, vT = ball_at(T, 0.5)
                    err = max(abs(x - (xT + vT * (t - T) + G / 2 * (t - T) ** 2)) +
                              abs(v - (vT + G * (t - T)))
                              for t, x, v in zip(r.t, r["B.x"], r["B.v"]) if t > T + 1e-9)
                    sw = [float(x["t"]) for x in r.events if x["kind"] == "time"]
                    print("  lift while %s from T = %g s, every %s, %s -> (x, v) within %.3g of "
                          "the rise, switch at %s" % (cond, T, every, meth, err, sw[:2]))
                    check(err < 1e-9 and any(abs(x - T) < 1e-12 for x in sw),
                          "lift while %s from %g s (%s, every %s): the rise at g from T"
                          % (cond, T, meth, every))


def case_kept_switchforms(tmp):
    """The lift's affine forms, marked and in disguise."""
    switchforms(tmp, list(enumerate(FORMS))[:9])


def case_kept_switchforms2(tmp):
    """The lift's forms that are not affine."""
    switchforms(tmp, list(enumerate(FORMS))[9:])


if __name__ == "__main__":
    sys.exit(main({"findings_energetic": case_findings_energetic,
                   "findings_origin": case_findings_origin,
                   "findings_switchnoise": case_findings_switchnoise,
                   "findings_simulgain": case_findings_simulgain,
                   "kept_trains": case_kept_trains,
                   "kept_strobe": case_kept_strobe,
                   "kept_switchforms": case_kept_switchforms,
                   "kept_switchforms2": case_kept_switchforms2,
                   "kept_risingfloor": case_kept_risingfloor},
                  "nsm-twentysecond-contact-", case_arg=2))
