"""Mass bouncing on an elastic (A) or absorbent (B) ground, code_aster SDND108.

m z'' = -m g in flight; ground at z = h; in contact
m z'' = -m g + k (h - z) - c z'.  The contact starts when z reaches h from
above and ends, depending on the release semantics:
- "force": when the ground force k (h - z) - c z' reaches 0 (no pull);
  the mass is then still slightly below h, rising, and flies out without
  any further event;
- "gap": when z returns to h (code_aster's reference; with c > 0 the ground
  pulls just before release).
Free flight is the exact parabola, the contact the exact damped oscillation.
Self-checks against the closed forms of the code_aster documentation: fall time (eq. 3/10), contact
solution (eq. 5-6 / 12-13), release time for A (eq. 7).
"""
from mpmath import mp, mpf

import piecewise as pw

mp.dps = 50

M, G, HG, K = mpf(1), mpf(10), mpf(-2), mpf(100)
Z0, V0 = mpf(0), mpf(-1)
T_END = mpf("1.1")


def simulate(c, semantics):
    c = mpf(c)
    free = pw.NilpotentMode([[0, 1], [0, 0]], [0, -G], h=mpf("0.02"))
    contact = pw.Mode([[0, 1], [-K / M, -c / M]], b0=[0, -G + K * HG / M])
    gap = pw.LinearFn([1, 0], const=-HG)
    pen = pw.LinearFn([-1, 0], const=HG)
    force = pw.LinearFn([-K, -c], const=K * HG)
    rec = pw.Record(["M"])
    t, y, incontact = mpf(0), [Z0, V0], False
    log = []
    while True:
        if incontact:
            traj = contact.start(t, y)
            rec.segment(t, traj.y, "contact")
            fn = force if semantics == "force" else pen
            te, _ = pw.first_zero(traj, [fn], t, T_END, contact.h)
            if te is None:
                return audit(rec, c, semantics), log
            rec.event(te, "contact_exit", "floor")
            log.append((te, "contact_exit", traj))
            t, y, incontact = te, traj.y(te), False
            continue
        traj = free.start(t, y)
        rec.segment(t, traj.y, "below" if gap.at(traj, t) < 0 else "free")
        if gap.at(traj, t) < 0:
            # released below the ground level: rise out of it, no event
            tu, _ = pw.first_zero(traj, [pen], t, T_END, free.h)
            if tu is None:
                return audit(rec, c, semantics), log
            log.append((tu, "emerge", traj))
            t, y = tu, [HG, traj.y(tu)[1]]
            rec.segment(t, traj.y, "free")
            continue
        te, _ = pw.first_zero(traj, [gap], t, T_END, free.h)
        if te is None:
            return audit(rec, c, semantics), log
        rec.event(te, "contact_enter", "floor")
        log.append((te, "contact_enter", traj))
        t, y, incontact = te, [HG, traj.y(te)[1]], True


def audit(rec, c, semantics):
    """Free flight stays above the ground (except rising out after a force
    release); in contact the mass is below the ground level, and with the
    force semantics the ground never pulls."""
    checks = {"free": lambda t, s: s[0] - HG, "below": lambda t, s: s[1]}
    if semantics == "force":
        checks["contact"] = lambda t, s: K * (HG - s[0]) - c * s[1]
    else:
        checks["contact"] = lambda t, s: HG - s[0]
    rec.audit(T_END, checks)
    return rec


def documented_checks(c, rec, log):
    """The documented closed forms for the fall, the contact motion and (A) the release."""
    c = mpf(c)
    w = mp.sqrt(K / M)
    root = mp.sqrt(V0 ** 2 - 2 * G * HG)
    t_fall = (V0 + root) / G
    enter = log[0]
    pw.expect(enter[1] == "contact_enter" and abs(enter[0] - t_fall) < mpf("1e-45"), "eq. 3 fall time")
    if c == 0:
        C1, C2 = -root / w, G / w ** 2
        z = lambda s: C1 * mp.sin(w * s) + C2 * mp.cos(w * s) + HG - G / w ** 2
        t_rel = 2 * (mp.pi + mp.atan(w ** 2 * C1 / G)) / w
        exit_ = log[1]
        pw.expect(abs(exit_[0] - t_fall - t_rel) < mpf("1e-45"), "eq. 7 release time")
    else:
        Rd = mp.sqrt(4 * K * M - c * c) / M
        C2 = G / w ** 2
        C1 = (c * G - 2 * K * root) / (K * Rd)
        z = lambda s: mp.exp(-c * s / (2 * M)) * (C1 * mp.sin(Rd * s / 2) + C2 * mp.cos(Rd * s / 2)) + HG - G / w ** 2
    for i in range(1, 6):
        s = i * mpf("0.05")
        pw.expect(abs(rec.state(t_fall + s)[0] - z(s)) < mpf("1e-40"), "eq. 5/12 contact motion")
    return z, t_fall


def compute(name, c):
    outs = []
    times = pw.grid(0, T_END, "0.1")
    exits = {}
    for sem in ("force", "gap"):
        rec, log = simulate(c, sem)
        z, t_fall = documented_checks(c, rec, log)
        ex = [t for t, k, _ in log if k == "contact_exit"]
        pw.expect(len(ex) == 1, "one rebound before 1.1 s")
        exits[sem] = ex[0]
        if sem == "gap":
            pw.expect(abs(z(ex[0] - t_fall) - HG) < mpf("1e-40"), "release at z = h")
        outs.append(("%s_%s" % (name, sem), pw.events_text(rec), pw.samples_text(rec, times)))
    if mpf(c) == 0:
        pw.expect(abs(exits["force"] - exits["gap"]) < mpf("1e-45"), "A: force and gap release coincide")
    else:
        pw.expect(exits["force"] < exits["gap"], "B: force reaches 0 before z returns to h")
    return outs
