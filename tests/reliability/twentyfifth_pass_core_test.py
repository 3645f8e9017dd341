#!/usr/bin/env python3
"""A twenty-fifth hostile pass on contacts, events and time switches, every
answer against a closed form or an exact invariant derived here.

    tests/reliability/twentyfifth_pass_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings_surfacegain  floor | A (2 kg) | B (1.26 kg) | C (1 kg), all
                touching, every contact elastic, the floor at c t, A and C
                at c, B at c - 1.872 m/s (so that relative to the floor the
                problem is the one refused at c = 0, a gain of 1.752 J),
                impact_law = simultaneous, by exact, rk4 and adaptive, c =
                +-0.3, +-1, 10 m/s: refused, naming the gain.  By hand the
                change of kinetic energy is sum P_a (u_a- + u_a+)/2 plus
                the floor's work P_f c, and the law's term is the 1.752 J
                it adds whatever c.  Failed before: allowed twice |P_f c|,
                the gain ran silently for c = 0.3 m/s up (exit 0), and for
                c < 0, where the floor's work is negative, the lab-frame
                kinetic energy fell and the check saw nothing.  A ball
                thrown at -1 m/s onto a floor at c t (e = 1, 0.5) still
                leaves at c + e (1 + c) by hand.
  findings_belttouch  models/belt_friction.nsm (1 kg on a belt at v_b, k =
                1 N/m, N = 10 N, mu_s = 0.5, mu_k = 0.3) from rest, v_b = 3
                m/s: the mass's speed 3 sin t peaks at the belt's at t =
                pi/2 (a touch, not a crossing) and it sticks there, slips
                at pi/2 + 2/3 s (k x = mu_s N), sticks again after 2 pi - 2
                atan(2/3) s of slip and slips 4/3 s later (by hand); by rk4
                and adaptive with steps of pi/1000 s (a step ending on the
                touch), sample intervals of pi/50 s, 0.01 s and every step,
                t_end = 3 s and 6 pi s; v_b = 3 sin(0.4 pi) (a crossing) by
                hand too.  Failed before: a step ending on the touch, the
                slip at its end inside its band but not below 0, was no
                event, nor was the next step's start: the mass never stuck
                and swung as a free oscillator, exit 0.
  findings_energeticnan  three touching 1 kg beads, the first at 1 m/s
                into the others, e = 1, impact_law = energetic, the two
                contacts' stiffnesses 1e-250 and 1e250 (or 1e-300 and
                1e300), exponents 1 and 1.5, by exact, rk4 and adaptive:
                refused, naming the energetic impact problem and the
                stiffnesses; with stiffnesses 1e6 and 1e6 it runs, the
                momentum (1 kg m/s) and the energy (0.5 J) kept.  Failed
                before: the kernel's impulses came out not finite, were
                applied, and the run stopped on "state is not finite
                (position of P1)" (loud, its cause unnamed).
  kept_galilean, kept_galilean2, kept_galilean3  touching chains on a
                floor at c t (masses 0.002 to 700 kg, 0.2 to 7 kg under
                the energetic law, whose kernel is slow over decades; restitutions 0 to 1, one bead struck relative to the
                floor) under the sequential, energetic and simultaneous
                laws (one case each), c = 0, 1, -1000 m/s, by exact, rk4 and adaptive: the
                velocities relative to the floor the same at every c (or
                refused at every c), their kinetic energy not gained.
                Passed (kept).
  kept_zenoend  a ball dropped from h onto a floor at c t (e = 0.5, 0.9),
                run to its closed-form Zeno time t1 (1 + e) / (1 - e) and
                past it, and to its first impact exactly: the last row at
                t_end, on the floor, at the floor's speed after the Zeno
                point.  Passed (kept).
  findings_stiffunit  a penalty gap with `k = 1 N/m` and exponent 13, 16
                (whole numbers beyond the units' powers, 12), 2.5, or a
                parameter p = 2, checked by nsmc: refused with file:line:col,
                the line and a caret, the message naming the exponent as it
                is (13 and 16 whole, 2.5 fractional, p an expression); 12
                asks for N/m^12.  Failed before: 13, 16 and p were called
                "a fractional exponent" (loud, the cause misnamed).
  findings_pendtie  models/pendulum_wall.nsm released at 1 rad against a
                wall at -0.999999 rad (and at 0.1, -0.0999999 rad), e =
                0.8: by hand (elliptic integrals) it reaches the wall at
                t_w = sqrt(l/g) (K(k) - F(asin(sin(phi_w/2)/k) | k^2)), k =
                sin(phi0/2), at l sqrt(2 g (cos phi_w - cos phi0)) (0.004
                m/s), 1e-6 rad before its turning point; by rk4 with samples
                every t_w/10, t_w/7, t_w/1000 (steps ending on the impact)
                and every step, and by adaptive: one impact, at t_w and
                that speed (rk4 to 1e-9 s and 1e-6; adaptive, whose error
                at this grazing speed is its own, to 1e-6 s and 1e-3).
                Failed before: with a step ending on the impact, the gap
                inside its band there and closing, the next step (from
                inside the band) turned back 1e-6 rad into the wall and out
                unseen: no impact, exit 0.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, compiled, refusal  # noqa: E402

METHODS = ("exact", "rk4", "adaptive")
SOURCE = sys.argv[1]


def ran(m, label, **kw):
    """m.run(**kw); a refusal fails the case, naming label and the message."""
    import nsm
    try:
        return m.run(**kw)
    except nsm.Error as ex:
        print("  %s -> refused: %s" % (label, str(ex)[:300]))
        check(False, "%s: the run refused (%s)" % (label, str(ex)[:300]))


SURF = '''model surf "a touching chain on a moving floor, the same problem relative to it"
param c = 0 m/s
mass A = 2 kg
mass B = 1.26 kg
mass C = 1 kg
gap floor: A.x >= c*t, impact(e = 1)
gap G1: B.x - A.x >= 0 m, impact(e = 1)
gap G2: C.x - B.x >= 0 m, impact(e = 1)
init A.x = 0 m, B.x = 0 m, C.x = 0 m, A.v = c, B.v = c - 1.872 m/s, C.v = c
simulate t_end = 0.01 s, dt = 1 ms, impact_law = simultaneous
output every 1 ms: A.v, B.v, C.v
'''

BALL = '''model ballmv "a ball thrown onto a moving floor"
param c = 0 m/s
param e = 1
mass Q = 1 kg
gap floor: Q.x >= c*t, impact(e = e)
init Q.x = 0.5 m, Q.v = -1 m/s
simulate t_end = 1 s, dt = 1 ms, impact_law = simultaneous
output every 1 ms: Q.v
'''


def case_findings_surfacegain(tmp):
    """A moving floor's work hides no gain of the simultaneous law."""
    m = compiled(tmp, "surf", SURF)
    for meth in METHODS:
        for c in (0.3, 1.0, 10.0, -0.3, -1.0):
            label = ("floor at %g t | 2 kg | 1.26 kg | 1 kg touching, e = 1, B at %g - 1.872 "
                     "m/s, the others at %g, simultaneous, %s" % (c, c, c, meth))
            msg = refusal(lambda: m.run(method=meth, params={"c": c}))
            print("  %s -> %s" % (label, "refused: " + msg[:240] if msg else "ran"))
            check(msg is not None and "adds energy" in msg and "simultaneous" in msg,
                  label + ": refused, naming the energy the law adds")
    b = compiled(tmp, "ballmv", BALL)
    for meth in METHODS:
        for c in (0.0, 0.5, -0.5, 3.0):
            for e in (1.0, 0.5):
                label = "a ball at -1 m/s onto a floor at %g t, e = %g, %s" % (c, e, meth)
                r = ran(b, label, method=meth, params={"c": c, "e": e})
                want = c + e * (1 + c)
                got = r["Q.v"][-1]
                print("  %s -> leaves at %.15g m/s (by hand %.15g)" % (label, got, want))
                check(abs(got - want) <= 1e-12 * (1 + abs(want)),
                      label + ": the rebound by hand")


def belt_events(vb, t_end):
    """The stick and slip instants of belt_friction.nsm (m = k = 1, mu_k N /
    k = 3 m, mu_s N / k = 5 m) from rest, v_b <= 3 m/s, by hand: slipping,
    x = 3 (1 - cos t) until its speed reaches v_b (asin(v_b / 3)), stuck
    until x = 5 m, then slip arcs of 2 pi - 2 atan(2 / v_b) about x = 3 m
    and stuck spans of 4 / v_b."""
    t1 = math.asin(vb / 3.0)
    ev = [(t1, "stick")]
    t = t1 + (5.0 - 3.0 * (1 - math.cos(t1))) / vb
    ev.append((t, "slip"))
    while t < t_end:
        t += 2 * math.pi - 2 * math.atan(2.0 / vb)
        ev.append((t, "stick"))
        t += 4.0 / vb
        ev.append((t, "slip"))
    return [e for e in ev if e[0] < t_end]


def case_findings_belttouch(tmp):
    """A slip that touches 0 at a step's end sticks there."""
    m = compiled(tmp, "belt", path=os.path.join(SOURCE, "models", "belt_friction.nsm"))
    h = math.pi / 1000
    for meth in ("rk4", "adaptive", "exact"):
        for vb in (3.0, 3 * math.sin(0.4 * math.pi)):
            for t_end in (3.0, 6 * math.pi):
                for every in (math.pi / 50, 0.01, 0.0):
                    label = ("belt_friction.nsm, v_b = %.17g m/s, %s, dt = pi/1000 s, every %.6g s, "
                             "t_end = %.6g s" % (vb, meth, every, t_end))
                    r = ran(m, label, method=meth, params={"v_b": vb}, t_end=t_end, dt=h,
                            every=every)
                    got = [(float(e["t"]), e["kind"]) for e in r.events]
                    want = belt_events(vb, t_end)
                    print("  %s -> %s (by hand %s)" % (label, ", ".join(
                        "%s %.12g" % (k, t) for t, k in got[:4]) or "no events", ", ".join(
                        "%s %.12g" % (k, t) for t, k in want[:4])))
                    check(len(got) == len(want) and all(
                        a[1] == b[1] and abs(a[0] - b[0]) <= 1e-7 for a, b in zip(got, want)),
                        label + ": the stick and slip instants by hand")


ENTRAIN = '''model entr "three touching beads under the energetic law"
param K1 = 1e6
param K2 = 1e6
param eta = 1
mass P1 = 1 kg
mass P2 = 1 kg
mass P3 = 1 kg
gap G1: P2.x - P1.x >= 0 m, impact(e = 1, stiffness = K1, exponent = eta)
gap G2: P3.x - P2.x >= 0 m, impact(e = 1, stiffness = K2, exponent = eta)
init P1.v = 1 m/s
simulate t_end = 1e-3 s, dt = 1e-4 s, impact_law = energetic
output every 1e-4 s: P1.v, P2.v, P3.v
'''


def case_findings_energeticnan(tmp):
    """Stiffnesses too far apart for the energetic kernel: refused, named."""
    m = compiled(tmp, "entr", ENTRAIN)
    for meth in METHODS:
        for k1, k2 in ((1e-250, 1e250), (1e-300, 1e300)):
            for eta in (1.0, 1.5):
                label = ("three touching 1 kg beads, e = 1, energetic, stiffnesses %g and %g, "
                         "exponent %g, %s" % (k1, k2, eta, meth))
                msg = refusal(lambda: m.run(method=meth, params={"K1": k1, "K2": k2, "eta": eta}))
                print("  %s -> %s" % (label, "refused: " + msg[:260] if msg else "ran"))
                check(msg is not None and "energetic impact problem" in msg and
                      "stiffnesses" in msg and "not finite (position" not in msg,
                      label + ": refused, naming the energetic problem and the stiffnesses")
        label = "three touching 1 kg beads, e = 1, energetic, stiffnesses 1e6 and 1e6, " + meth
        r = ran(m, label, method=meth)
        v = [r["P%d.v" % (i + 1)][-1] for i in range(3)]
        print("  %s -> %r, momentum %.17g, energy %.17g" % (label, v, sum(v),
                                                           sum(x * x / 2 for x in v)))
        check(abs(sum(v) - 1) <= 1e-12 and abs(sum(x * x / 2 for x in v) - 0.5) <= 1e-9,
              label + ": momentum and energy kept")


def chain_model(law, masses, es, dv):
    """A touching chain P1.. on a floor at c t, every bead at c plus dv."""
    n = len(masses)
    ex = ", stiffness = 1e7, exponent = 1.5" if law == "energetic" else ""
    lines = ['model gal "a touching chain on a floor moving at c"', "param c = 0 m/s"]
    lines += ["mass P%d = %r kg" % (i + 1, mm) for i, mm in enumerate(masses)]
    lines += ["gap F: P1.x >= c*t, impact(e = %r%s)" % (es[0], ex)]
    lines += ["gap G%d: P%d.x - P%d.x >= 0 m, impact(e = %r%s)" % (i + 1, i + 2, i + 1, es[i + 1], ex)
              for i in range(n - 1)]
    lines += ["init " + ", ".join("P%d.x = 0 m, P%d.v = c + %r m/s" % (i + 1, i + 1, dv[i])
                                  for i in range(n))]
    lines += ["simulate t_end = 1e-3 s, dt = 1e-4 s, impact_law = %s" % law,
              "output every 1e-4 s: " + ", ".join("P%d.v" % (i + 1) for i in range(n))]
    return "\n".join(lines) + "\n"


def kept_galilean(tmp, law):
    """A chain's answer relative to its moving floor does not depend on c."""
    import nsm
    chains = (([2.0, 1.26, 1.0], [1.0, 1.0, 1.0], [0.0, -1.872, 0.0]),
              ([0.002, 5.0, 700.0, 0.3] if law != "energetic" else [0.2, 5.0, 7.0, 0.3],
               [0.5, 1.0, 0.0, 0.9], [0.0, 0.0, 0.0, -2.5]))
    for k, (masses, es, dv) in enumerate(chains):
        for law in (law,):
            m = compiled(tmp, "gal%d%s" % (k, law), chain_model(law, masses, es, dv))
            for meth in METHODS:
                ref = None
                for c in (0.0, 1.0, -1000.0):
                    label = "chain %d (masses %r, e %r), %s, floor at %g t, %s" % (
                        k, masses, es, law, c, meth)
                    try:
                        r = m.run(method=meth, params={"c": c})
                    except nsm.Error as ex:
                        print("  %s -> refused: %s" % (label, str(ex)[:200]))
                        check(ref in (None, "refused"), label + ": refused as at c = 0")
                        ref = "refused"
                        continue
                    v = [r["P%d.v" % (i + 1)][-1] - c for i in range(len(masses))]
                    K0 = sum(mm * d * d / 2 for mm, d in zip(masses, dv))
                    K1 = sum(mm * d * d / 2 for mm, d in zip(masses, v))
                    print("  %s -> relative velocities %r, energy %.15g J of %.15g J" % (
                        label, v, K1, K0))
                    check(ref != "refused", label + ": runs only where c = 0 runs")
                    check(K1 <= K0 * (1 + 1e-9), label + ": no energy gained relative to the floor")
                    if ref is None:
                        ref = v
                    check(max(abs(a - b) for a, b in zip(v, ref)) <= 1e-7 * (1 + abs(c)),
                          label + ": the same relative velocities as at c = 0")


ZENO = '''model zmv "a ball bouncing to rest on a floor moving at c"
param h = 1 m
param e = 0.5
param c = 0 m/s
mass B = 1 kg
gravity 9.81 m/s^2
gap floor: B.x >= c*t, impact(e = e)
init B.x = h, B.v = c
simulate t_end = 3 s, dt = 1 ms
output every 1 ms: B.x, B.v
'''


def case_kept_zenoend(tmp):
    """The last row at t_end on an impact or a Zeno point, on a moving floor."""
    g = 9.81
    m = compiled(tmp, "zmv", ZENO)
    for meth in METHODS:
        for h, e, c in ((1.0, 0.5, 0.0), (1e-4, 0.9, 1.0), (1.0, 0.5, -1.0), (0.3, 0.1, 100.0)):
            t1 = math.sqrt(2 * h / g)
            tz = t1 * (1 + e) / (1 - e)
            for t_end, what in ((tz, "the Zeno point"), (1.5 * tz, "past the Zeno point"),
                                (t1, "the first impact")):
                for every in (t_end / 7, 0.3 * t_end, 0.0):
                    label = ("drop from %g m, e = %g, floor at %g t, %s, t_end at %s (%.17g s), "
                             "every %.6g s" % (h, e, c, meth, what, t_end, every))
                    r = ran(m, label, method=meth, params={"h": h, "e": e, "c": c}, t_end=t_end,
                            every=every)
                    t, x, v = r.t[-1], r["B.x"][-1], r["B.v"][-1]
                    w = math.sqrt(2 * g * h)
                    print("  %s -> last row t %.17g, x - c t %.3g, v - c %.6g" % (label, t, x - c * t,
                                                                               v - c))
                    check(abs(t - t_end) <= 1e-12 * t_end and abs(x - c * t) <= 1e-7 * (h + abs(c * t)),
                          label + ": the last row at t_end, on the floor")
                    if what == "the first impact":
                        check(min(abs(v - c + w), abs(v - c - e * w)) <= 1e-6 * w,
                              label + ": arriving or leaving at the speed by hand")
                    else:
                        check(abs(v - c) <= 1e-6 * (w + abs(c)), label + ": at rest on the floor")


STIFF = '''model st "a ball on a penalty floor"
param p = 2
mass B = 1 kg
gap G: B.x >= 0 m, penalty(k = 1 N/m, exponent = %s)
init B.x = 1 m
simulate t_end = 1 s, dt = 1 ms
output every 1 ms: B.x
'''


def case_findings_stiffunit(tmp):
    """A stiffness's unit refused with the exponent named as it is."""
    import subprocess
    nsmc = os.path.join(os.environ.get("NSM_BUILD_DIR", ""), "nsmc")
    for ex, want in (("13", "the exponent 13 (units have whole powers up to 12)"),
                     ("16", "the exponent 16 (units have whole powers up to 12)"),
                     ("2.5", "a fractional exponent"), ("p", "an exponent given by an expression"),
                     ("12", "must be in N/m^12")):
        src = os.path.join(tmp, "st%s.nsm" % ex.replace(".", "_"))
        with open(src, "w") as f:
            f.write(STIFF % ex)
        p = subprocess.run([nsmc, "--check", src], capture_output=True, text=True, timeout=60)
        print("  exponent = %s -> exit %d: %s" % (ex, p.returncode, p.stderr.strip()[:300]))
        check(p.returncode != 0 and ("%s:4:32: error:" % src) in p.stderr and "^" in p.stderr
              and want in p.stderr and (ex == "2.5" or "fractional" not in p.stderr),
              "exponent = %s: refused at 4:32 with a caret, naming %s" % (ex, want), p)


def pendulum_hit(phi0, phiw, g=9.81, l=1.0):
    """(instant, speed) of a pendulum released from rest at phi0 reaching
    phi_w (|phi_w| < phi0) on its first swing: the incomplete elliptic
    integral of the first kind, energy for the speed."""
    from mpmath import mp, ellipf, ellipk, asin, sin, sqrt
    mp.dps = 30
    k = sin(mp.mpf(phi0) / 2)
    t = sqrt(mp.mpf(l) / g) * (ellipk(k * k) - ellipf(asin(sin(mp.mpf(phiw) / 2) / k), k * k))
    return float(t), l * math.sqrt(2 * g / l * (math.cos(phiw) - math.cos(phi0)))


def case_findings_pendtie(tmp):
    """An impact at a step's end, just before the turning point, is seen."""
    m = compiled(tmp, "pend", path=os.path.join(SOURCE, "models", "pendulum_wall.nsm"))
    for phi0, phiw in ((1.0, -0.999999), (0.1, -0.0999999)):
        tw, w = pendulum_hit(phi0, phiw)
        for meth, tol_t, tol_v in (("rk4", 1e-9, 1e-6), ("adaptive", 1e-6, 1e-3)):
            for every in (tw / 10, tw / 7, tw / 1000, 0.0):
                label = ("pendulum_wall.nsm from %g rad, wall at %g rad, e = 0.8, %s, every %.17g s"
                         % (phi0, phiw, meth, every))
                r = ran(m, label, method=meth, params={"phi0": phi0, "phi_w": phiw, "e": 0.8},
                        t_end=1.5 * tw, every=every)
                imp = [(float(e["t"]), float(e["vrel_before"])) for e in r.events
                       if e["kind"] == "impact"]
                print("  %s -> impacts %r (by hand at %.17g s, %.17g m/s)" % (label, imp, tw, w))
                check(len(imp) == 1 and abs(imp[0][0] - tw) <= tol_t and
                      abs(-imp[0][1] - w) <= tol_v * w,
                      label + ": one impact, at the instant and speed by hand")


if __name__ == "__main__":
    sys.exit(main({"findings_surfacegain": case_findings_surfacegain,
                   "findings_belttouch": case_findings_belttouch,
                   "findings_energeticnan": case_findings_energeticnan,
                   "findings_stiffunit": case_findings_stiffunit,
                   "findings_pendtie": case_findings_pendtie,
                   "kept_galilean": lambda tmp: kept_galilean(tmp, "sequential"),
                   "kept_galilean2": lambda tmp: kept_galilean(tmp, "energetic"),
                   "kept_galilean3": lambda tmp: kept_galilean(tmp, "simultaneous"),
                   "kept_zenoend": case_kept_zenoend},
                  "nsm-twentyfifth-core-", case_arg=2))
