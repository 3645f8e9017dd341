"""Closed-form event-driven reference for a disc in the plane against flat walls.

A disc of mass m, radius R and moment of inertia th moves in the plane
(x, y, phi; y up, phi counter-clockwise) under a constant acceleration a
(gravity) and meets flat walls, each given by its unit normal n (pointing to
the disc's side) and a point p: gap = n.((x, y) - p) - R >= 0.  At the contact
point r = -R n the disc's velocity is v + omega k x r = v + R omega t with
t = (n_y, -n_x), so the slip velocity is gamma = v.t + R omega (for the floor,
n = (0, 1): gamma = vx + R omega, the seed collection's u_x + R phi').

Every phase has constant accelerations, so every motion is a polynomial of
degree 2 in time and every event the root of one, located in closed form:

- free flight: a; the next impact is the first root of the quadratic gap.
- impact (Newton's normal law, Coulomb's law on the tangential impulse with a
  tangential restitution e_T, the seed's frictional impact law): the normal
  impulse is P_N = -(1 + e_N) m v_n-; a normal impulse at r has no moment
  about the centre, and a tangential one P_T t changes v.t by P_T/m and omega
  by R P_T/th, so gamma by P_T/W with W = 1/(1/m + R^2/th): the two decouple.
  Sticking needs P_T = -(1 + e_T) W gamma-; it is taken when
  |P_T| <= mu P_N, else the impulse saturates, P_T = -mu P_N sign(gamma-).
- contact (after a plastic impact or a Zeno accumulation): normal force
  N = -m a.n > 0; sliding with friction -mu N sign(gamma) until gamma reaches 0
  (gamma' = a.t - mu N sign(gamma)/W), then rolling when the friction it needs,
  |W a.t| <= mu N, is available (accelerations a.t - W a.t / m along t,
  -R W a.t / th for omega), else sliding on.
- a Zeno cascade (0 < e_N < 1, normal acceleration into the wall) is followed
  impact by impact until its flights are shorter than 1e-20 s; the remaining
  flights sum to 2 v_n+ / (g_n (1 - e_N)), the accumulation point, where the
  disc lands in contact with its tangential state carried by the same
  polynomials when the tail's impacts have no tangential impulse
  (frictionless, or gamma = 0 with e_T = 0 and no tangential acceleration);
  when the slip is not zero, each impact of the tail takes -mu P_N sign(gamma)
  and the tail's impulses are summed in closed form (zeno), the slip keeping
  its sign through the tail (checked).

- walls hit at one instant (a disc thrown into a corner): the simultaneous
  frictional law over all of them (impact_multi), by trying every
  combination of pushing, sticking and sliding walls.

Nothing is integrated numerically; mpmath at 50 digits.  Each case script
(rotating_ball.py, disc_incline.py, disc_walls.py) runs it and checks its
results against the hand formulas it states.
"""
from mpmath import mp, mpf

import piecewise as pw

mp.dps = 50

TINY = mpf("1e-40")


class Wall:
    def __init__(self, name, n, p, e, mu, et=0):
        nn = mp.sqrt(mpf(n[0]) ** 2 + mpf(n[1]) ** 2)
        self.name = name
        self.n = (mpf(n[0]) / nn, mpf(n[1]) / nn)
        self.t = (self.n[1], -self.n[0])
        self.p = (mpf(p[0]), mpf(p[1]))
        self.e, self.mu, self.et = mpf(e), mpf(mu), mpf(et)


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1]


class Segment:
    """Constant accelerations from t0 on: q(t) = q0 + u0 s + acc s^2 / 2."""

    def __init__(self, t0, q, u, acc):
        self.t0, self.q, self.u, self.acc = t0, list(q), list(u), list(acc)

    def at(self, t):
        s = t - self.t0
        q = [self.q[i] + self.u[i] * s + self.acc[i] * s * s / 2 for i in range(3)]
        u = [self.u[i] + self.acc[i] * s for i in range(3)]
        return q, u


class Disc:
    def __init__(self, m, R, th, a, walls):
        self.m, self.R, self.th = mpf(m), mpf(R), mpf(th)
        self.a = (mpf(a[0]), mpf(a[1]))
        self.walls = walls
        self.W = 1 / (1 / self.m + self.R ** 2 / self.th)

    def gap(self, w, q):
        return dot(w.n, (q[0] - w.p[0], q[1] - w.p[1])) - self.R

    def slip(self, w, u):
        return dot(w.t, u[:2]) + self.R * u[2]


def first_root(c0, c1, c2):
    """First s > 0 with c0 + c1 s + c2 s^2 / 2 = 0 and the value falling
    through zero, or None; c0 >= 0 (a gap), near 0 right after an impact."""
    if abs(c0) < TINY:
        if c1 < 0:
            return mpf(0)
        if c2 < 0 and c1 > 0:
            return -2 * c1 / c2
        return None
    if c2 == 0:
        return -c0 / c1 if c1 < 0 else None
    disc = c1 * c1 - 2 * c2 * c0
    if disc < 0:
        return None
    sq = mp.sqrt(disc)
    roots = [r for r in ((-c1 - sq) / c2, (-c1 + sq) / c2) if r > 0]
    # the root where the gap decreases: c1 + c2 s < 0
    roots = [r for r in roots if c1 + c2 * r <= 0]
    return min(roots) if roots else None


class Run:
    """Events (t, kind, contact, q, u after) and segments of one motion."""

    def __init__(self, disc, q0, u0, t_end, on=None):
        """The motion from (q0, u0) at t = 0: in flight, or when `on` names
        a wall the disc starts touching (gap 0, no normal velocity), in
        contact with it."""
        self.d, self.t_end = disc, mpf(t_end)
        self.events, self.segs = [], []
        self.impacts = []          # (t, wall, vn-, P_N, P_T, stuck, u-, u+)
        self.rolling = []          # (t, wall, u) when the slip reaches zero in contact
        q, u, t = [mpf(v) for v in q0], [mpf(v) for v in u0], mpf(0)
        if on is None:
            self.go(t, q, u)
            return
        pw.expect(abs(disc.gap(on, q)) < mpf("1e-45") and abs(dot(on.n, u[:2])) < mpf("1e-45"),
                  "a disc placed on a wall touches it at rest along its normal")
        while t is not None:
            t, q, u = self.in_contact(t, q, u, on)

    # -------------------------------------------------------------- phases
    def go(self, t, q, u):
        contact = None
        while t < self.t_end:
            if contact is None:
                t, q, u, contact = self.flight(t, q, u)
            else:
                t, q, u = self.in_contact(t, q, u, contact)
                if t is None:
                    return

    def flight(self, t, q, u):
        d = self.d
        acc = (d.a[0], d.a[1], mpf(0))
        seg = Segment(t, q, u, acc)
        self.segs.append(seg)
        best = None
        for w in d.walls:
            s = first_root(d.gap(w, q), dot(w.n, u[:2]), dot(w.n, d.a))
            if s is not None and (best is None or s < best[0]):
                best = (s, w)
        if best is None or t + best[0] >= self.t_end:
            return self.t_end, q, u, None
        s, w = best
        t1 = t + s
        q1, u1 = seg.at(t1)
        # walls hit at the same instant: one impulse problem over all
        together = [v for v in d.walls if abs(d.gap(v, q1)) < TINY and dot(v.n, u1[:2]) < 0]
        if len(together) > 1:
            u2 = self.impact_multi(t1, together, u1)
            pw.expect(all(dot(v.n, u2[:2]) > TINY for v in together),
                      "every wall of a simultaneous impact rebounds")
            return t1, q1, u2, None
        u2 = self.impact(t1, w, u1)
        vn = dot(w.n, u2[:2])
        if vn <= TINY:
            # plastic: the contact closes
            pw.expect(dot(w.n, d.a) < 0, "a plastic impact with the acceleration into the wall")
            u2 = self.project(w, u2)
            self.events.append((t1, "stick", w.name, q1, u2))
            return t1, q1, u2, w
        # a Zeno cascade: follow it while flights are longer than 1e-20 s
        gn = -dot(w.n, d.a)
        if gn > 0 and w.e < 1 and 2 * vn / gn < mpf("1e-20"):
            return self.zeno(t1, q1, u2, w, gn)
        return t1, q1, u2, None

    def zeno(self, t, q, u, w, gn):
        d = self.d
        vn = dot(w.n, u[:2])
        tail = 2 * vn / (gn * (1 - w.e))
        gam = d.slip(w, u)
        still = w.mu == 0 or (abs(gam) < TINY and w.et == 0 and abs(dot(w.t, d.a)) < TINY)
        pw.expect(still or abs(dot(w.t, d.a)) < TINY,
                  "the Zeno tail's slip changes only at its impacts")
        seg = Segment(t, q, u, (d.a[0], d.a[1], mpf(0)))
        self.segs.append(seg)
        ts = t + tail
        q1, u1 = seg.at(ts)
        if not still:
            # a slipping tail: the flights last tau_i = 2 e^i vn / gn (i = 0,
            # 1, ...), impact k >= 1 lands at e^(k-1) vn, ts - t_k = 2 e^k vn /
            # (gn (1 - e)), and takes P_N,k = (1 + e) m e^(k-1) vn with the
            # tangential impulse -mu P_N,k sign(gamma) while gamma keeps its
            # sign.  Sums: P_N = (1 + e) m vn / (1 - e) and, for the
            # positions, sum P_N,k (ts - t_k) = 2 e m vn^2 / (gn (1 - e)^2).
            e, sg = w.e, mp.sign(gam)
            PT = -w.mu * sg * (1 + e) * d.m * vn / (1 - e)
            lever = -w.mu * sg * 2 * e * d.m * vn ** 2 / (gn * (1 - e) ** 2)
            u1 = [u1[0] + PT * w.t[0] / d.m, u1[1] + PT * w.t[1] / d.m, u1[2] + d.R * PT / d.th]
            q1 = [q1[0] + lever * w.t[0] / d.m, q1[1] + lever * w.t[1] / d.m,
                  q1[2] + d.R * lever / d.th]
            pw.expect(d.slip(w, u1) * sg > 0, "the slip keeps its sign through the Zeno tail")
            # the segment from t carries no tail impulse: the samples inside
            # the tail (shorter than 1e-20 s) are never asked for
        # the normal state of the accumulation point: gap 0, v_n 0
        u1 = self.project(w, u1)
        g = d.gap(w, q1)
        q1 = [q1[0] - g * w.n[0], q1[1] - g * w.n[1], q1[2]]
        self.events.append((ts, "zeno", w.name, q1, u1))
        self.events.append((ts, "stick", w.name, q1, u1))
        return ts, q1, u1, w

    def project(self, w, u):
        vn = dot(w.n, u[:2])
        return [u[0] - vn * w.n[0], u[1] - vn * w.n[1], u[2]]

    def impact(self, t, w, u):
        d = self.d
        vn = dot(w.n, u[:2])
        pw.expect(vn < 0, "an impact closes the gap")
        PN = -(1 + w.e) * d.m * vn
        gam = d.slip(w, u)
        PT = -(1 + w.et) * d.W * gam
        stuck = abs(PT) <= w.mu * PN
        if not stuck:
            PT = -w.mu * PN * mp.sign(gam)
        imp = (PN * w.n[0] + PT * w.t[0], PN * w.n[1] + PT * w.t[1])
        u2 = [u[0] + imp[0] / d.m, u[1] + imp[1] / d.m, u[2] + d.R * PT / d.th]
        # the law: after a sticking impact gamma+ = -e_T gamma-; after sliding
        # gamma+ + e_T gamma- has the sign of gamma- (the impulse opposes it)
        g2 = d.slip(w, u2)
        if stuck:
            pw.expect(abs(g2 + w.et * gam) < mpf("1e-40"), "sticking impact: gamma+ = -e_T gamma-")
        else:
            pw.expect((g2 + w.et * gam) * gam >= 0, "sliding impact: the impulse opposes the slip")
        pw.expect(abs(dot(w.n, u2[:2]) + w.e * vn) < mpf("1e-40"), "Newton: v_n+ = -e v_n-")
        self.impacts.append((t, w, vn, PN, PT, stuck, u, u2))
        self.events.append((t, "impact", w.name, None, u2))
        return u2

    def impact_multi(self, t, walls, u):
        """Walls hit at one instant (a disc in a corner): the simultaneous
        frictional law, Newton's v_n+ = -e v_n- at every wall that pushes
        (P_N >= 0; the others leave faster) and Coulomb's law on each
        wall's tangential impulse (sticking: gamma+ = -e_T gamma-, |P_T| <=
        mu P_N; sliding: P_T = -mu P_N sign(gamma+ + e_T gamma-)), solved by
        trying every combination of pushing, sticking and sliding walls as
        a linear system in mpmath; exactly one combination may obey the law
        (up to equal velocities)."""
        d = self.d
        nw = len(walls)
        rows = [(v.n[0], v.n[1], mpf(0)) for v in walls] + \
               [(v.t[0], v.t[1], d.R) for v in walls]
        minv = (1 / d.m, 1 / d.m, 1 / d.th)
        D = [[sum(a[i] * minv[i] * b[i] for i in range(3)) for b in rows] for a in rows]
        vel = [sum(a[i] * u[i] for i in range(3)) for a in rows]
        tgt = [-v.e * min(vel[i], 0) for i, v in enumerate(walls)]
        found = []
        for c in range(2 ** nw * 3 ** nw):
            act = [(c >> i) & 1 for i in range(nw)]
            q3 = c >> nw
            st = []
            for i in range(nw):
                st.append((0, 1, -1)[q3 % 3])
                q3 //= 3
            A = mp.zeros(2 * nw, 2 * nw)
            b = mp.zeros(2 * nw, 1)
            for i in range(2 * nw):
                v = walls[i % nw]
                on = act[i % nw]
                if not on or (i >= nw and v.mu == 0):
                    A[i, i] = 1
                elif i < nw or st[i - nw] == 0:
                    for k in range(2 * nw):
                        A[i, k] = D[i][k]
                    b[i] = tgt[i] - vel[i] if i < nw else -(1 + v.et) * vel[i]
                else:
                    A[i, i] = 1
                    A[i, i - nw] = st[i - nw] * v.mu
            try:
                P = mp.lu_solve(A, b)
            except ZeroDivisionError:
                continue
            after = [vel[i] + sum(D[i][k] * P[k] for k in range(2 * nw)) for i in range(2 * nw)]
            ok = True
            for i in range(nw):
                v = walls[i]
                if act[i]:
                    ok = ok and P[i] >= -TINY
                    if v.mu > 0:
                        xi = after[nw + i] + v.et * vel[nw + i]
                        ok = ok and (abs(P[nw + i]) <= v.mu * P[i] + TINY if st[i] == 0
                                     else st[i] * xi >= -TINY)
                else:
                    ok = ok and after[i] >= tgt[i] - TINY
            if ok:
                found.append((act, st, P, after))
        pw.expect(len(found) >= 1, "the simultaneous frictional impact has a solution")
        for f in found[1:]:
            pw.expect(max(abs(a - b) for a, b in zip(f[3], found[0][3])) < TINY,
                      "the simultaneous frictional impact's solution is unique")
        act, st, P, after = found[0]
        du = [sum(rows[k][i] * minv[i] * P[k] for k in range(2 * nw)) for i in range(3)]
        u2 = [u[i] + du[i] for i in range(3)]
        for i, v in enumerate(walls):
            stuck = bool(act[i]) and v.mu > 0 and st[i] == 0
            self.impacts.append((t, v, vel[i], P[i], P[nw + i], stuck, u, u2))
            self.events.append((t, "impact", v.name, None, u2))
        return u2

    def in_contact(self, t, q, u, w):
        """Sliding or rolling along wall w from t; returns the next phase's
        start (a new contact phase after the slip reached zero) or None at t_end."""
        d = self.d
        N = -d.m * dot(w.n, d.a)
        pw.expect(N > 0, "a compressive normal force in contact")
        at = dot(w.t, d.a)
        gam = d.slip(w, u)
        rolling = False
        if w.mu == 0:
            F = mpf(0)
        elif abs(gam) < TINY:
            F = -d.W * at
            rolling = abs(F) <= w.mu * N
            if not rolling:
                F = -w.mu * N * mp.sign(at)
        else:
            F = -w.mu * N * mp.sign(gam)
        acc_t = at + F / d.m
        acc = (acc_t * w.t[0], acc_t * w.t[1], d.R * F / d.th)
        seg = Segment(t, q, u, acc)
        self.segs.append(seg)
        if rolling or w.mu == 0 or abs(gam) < TINY:
            return None, None, None
        gdot = at + F / d.W
        if gdot * gam >= 0:
            return None, None, None          # slides on
        s = -gam / gdot
        t1 = t + s
        if t1 >= self.t_end:
            return None, None, None
        q1, u1 = seg.at(t1)
        # rolling from here: slip exactly zero
        pw.expect(abs(d.slip(w, u1)) < mpf("1e-40"), "slip zero at the start of rolling")
        self.rolling.append((t1, w, u1))
        self.events.append((t1, "roll", w.name, q1, u1))
        self.segs.append(None)  # marker: the next segment starts at t1
        return t1, q1, u1

    # -------------------------------------------------------------- output
    def state(self, t):
        segs = [s for s in self.segs if s is not None and s.t0 <= t]
        q, u = segs[-1].at(t)
        return q, u


COLS = ["D.x", "D.y", "D.phi", "D.vx", "D.vy", "D.omega"]


def events_text(run):
    """t, kind, contact and the velocities just after the event."""
    lines = ["t,kind,contact,D.vx,D.vy,D.omega"]
    for t, kind, c, q, u in run.events:
        lines.append(",".join([pw.fmt(t), kind, c] + [pw.fmt(v) for v in u]))
    return "\n".join(lines) + "\n"


def samples_text(run, times):
    lines = ["t," + ",".join(COLS)]
    for t in times:
        q, u = run.state(t)
        lines.append(",".join([pw.fmt(t)] + [pw.fmt(v) for v in q + u]))
    return "\n".join(lines) + "\n"


def check_samples(run, times):
    """Physics audit on the samples: no gap negative beyond rounding."""
    d = run.d
    for t in times:
        q, u = run.state(t)
        for w in d.walls:
            pw.expect(d.gap(w, q) > -mpf("1e-30"), "no interpenetration of %s at t = %s" % (w.name, t))
