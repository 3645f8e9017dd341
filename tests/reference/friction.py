"""Bodies on springs with Coulomb friction elements: an event-driven reference.

n bodies (masses m_i) on linear springs K, a forcing f(t) = f0 + fs sin(w t),
and friction elements k acting on slip velocities u_k = w_k . v - c_k (c_k a
constant surface velocity), with normal force N_k and coefficients
mu_s >= mu_k (the switch model of Leine et al., Nonlinear Dynamics 16, 1998):

  slip s = +-1:  generalized force -s mu_k N w_k;
  stick:         w_k . a = 0, its multiplier lambda_k within [-mu_s N, mu_s N].

Each mode is linear on the augmented state Y = (x1, v1, ..., xn, vn, S, C, 1)
with S = sin(w t), C = cos(w t) (S' = w C, C' = -w S), so its trajectory is
exp(A (t - t0)) Y0, computed by mpmath's matrix exponential at 60 digits; the
multipliers of the stuck elements are linear forms on Y.  Events, located on
that closed form to full precision:

  slipping k: s u_k reaches 0, by a crossing or a touch (a minimum of 0: the
              slip velocity reaches the surface's and turns back); then k sticks
              if the multiplier it needs is within mu_s N, else it slips with
              the sign opposite to that multiplier (a reversal when it changes);
  stuck k:    lambda_k reaches +mu_s N (then s = -1) or -mu_s N (s = +1).

Nothing here shares code with the simulator; no ODE is integrated.
"""
from mpmath import mp, mpf

import piecewise as pw

TOUCH = mpf(10) ** -40      # a minimum this close to 0 is a touch


class System:
    def __init__(self, masses, K, frictions, f0=None, fs=None, w=0):
        self.n = len(masses)
        self.m = [mpf(x) for x in masses]
        self.K = [[mpf(x) for x in row] for row in K]
        self.f0 = [mpf(x) for x in (f0 or [0] * self.n)]
        self.fs = [mpf(x) for x in (fs or [0] * self.n)]
        self.w = mpf(w)
        self.fr = []
        for f in frictions:
            self.fr.append(dict(name=f["name"], w=[mpf(x) for x in f["w"]], c=mpf(f.get("c", 0)),
                                N=mpf(f["N"]), mus=mpf(f["mus"]), muk=mpf(f["muk"])))
        self.dim = 2 * self.n + 3          # x, v interleaved, then S, C, 1

    def xi(self, i):
        return 2 * i

    def vi(self, i):
        return 2 * i + 1

    def forms(self, state):
        """For the friction states (0 stuck, +-1 slip): the acceleration rows
        (n forms on Y) and the stuck multipliers (one form each, dict)."""
        n, D = self.n, self.dim
        F = []                              # force on body i as a form on Y
        for i in range(n):
            row = [mpf(0)] * D
            for j in range(n):
                row[self.xi(j)] -= self.K[i][j]
            row[2 * n] += self.fs[i]
            row[D - 1] += self.f0[i]
            for k, f in enumerate(self.fr):
                if state[k] != 0:
                    row[D - 1] -= state[k] * f["muk"] * f["N"] * f["w"][i]
            F.append(row)
        stuck = [k for k in range(len(self.fr)) if state[k] == 0]
        r = len(stuck)
        lam = {}
        if r:
            Dm = mp.matrix(r, r)
            for a, ka in enumerate(stuck):
                for b, kb in enumerate(stuck):
                    Dm[a, b] = mp.fsum(self.fr[ka]["w"][i] * self.fr[kb]["w"][i] / self.m[i]
                                       for i in range(n))
            Di = mp.inverse(Dm)
            # q_a = w_a . M^-1 F (a form); lambda = -D^-1 q
            q = [[mp.fsum(self.fr[k]["w"][i] * F[i][col] / self.m[i] for i in range(n))
                  for col in range(D)] for k in stuck]
            for a, k in enumerate(stuck):
                lam[k] = [-mp.fsum(Di[a, b] * q[b][col] for b in range(r)) for col in range(D)]
            for i in range(n):
                for k in stuck:
                    for col in range(D):
                        F[i][col] += self.fr[k]["w"][i] * lam[k][col]
        acc = [[F[i][col] / self.m[i] for col in range(D)] for i in range(n)]
        return acc, lam

    def matrix(self, state):
        n, D = self.n, self.dim
        acc, lam = self.forms(state)
        A = mp.matrix(D, D)
        for i in range(n):
            A[self.xi(i), self.vi(i)] = 1
            for col in range(D):
                A[self.vi(i), col] = acc[i][col]
        A[2 * n, 2 * n + 1] = self.w
        A[2 * n + 1, 2 * n] = -self.w
        return A, lam

    def slip(self, k, Y):
        f = self.fr[k]
        return mp.fsum(f["w"][i] * Y[self.vi(i)] for i in range(self.n)) - f["c"]


class Trajectory:
    """exp(A (t - t0)) Y0 and its derivatives.  The propagators of the time
    offsets met are kept (a sample grid repeats its offsets)."""

    def __init__(self, A, t0, Y0):
        self.A, self.t0, self.Y0 = A, mpf(t0), mp.matrix(Y0)
        self.cache = {}
        self.last = None

    def state(self, t):
        t = mpf(t)
        if self.last is not None and self.last[0] == t:
            return self.last[1]
        if self.last is not None and self.last[0] < t <= self.last[0] + mpf("0.05"):
            key = mp.nstr(t - self.last[0], 40)
            E = self.cache.get(key)
            if E is None:
                E = self.cache[key] = mp.expm(self.A * (t - self.last[0]))
            Y = E * self.last[1]
        else:
            Y = mp.expm(self.A * (t - self.t0)) * self.Y0
        self.last = (t, Y)
        return Y

    def d(self, t, k=0):
        Y = self.state(t)
        for _ in range(k):
            Y = self.A * Y
        return [Y[i] for i in range(self.A.rows)]

    def y(self, t):
        return self.d(t)


def form_at(form, traj, t, k=0):
    return mp.fsum(a * b for a, b in zip(form, traj.d(t, k)))


def first_event(fns, traj, t0, t1, h):
    """Earliest (t, index) in (t0, t1] where a form reaches 0 from above, by a
    crossing or by a minimum within TOUCH of 0; fns start >= 0 (a zero at t0
    that rises is not an event)."""
    f = lambda i, x, k=0: form_at(fns[i], traj, x, k)
    ta, va, da = t0, [f(i, t0) for i in range(len(fns))], [f(i, t0, 1) for i in range(len(fns))]
    first = True
    while ta < t1:
        tb = min(ta + h, t1)
        best = None
        vb = [f(i, tb) for i in range(len(fns))]
        db = [f(i, tb, 1) for i in range(len(fns))]
        for i in range(len(fns)):
            t = None
            start_zero = first and abs(va[i]) <= TOUCH
            if vb[i] <= 0 and not start_zero:
                t = pw.root(lambda x: f(i, x), ta, tb, va[i], vb[i])
            elif da[i] < 0 < db[i] or (vb[i] <= 0 and start_zero):
                if da[i] < 0 < db[i]:
                    tm = pw.root(lambda x: -f(i, x, 1), ta, tb, -da[i], -db[i])
                    sm = f(i, tm)
                    if sm <= TOUCH and not (start_zero and tm - ta < mpf(10) ** -30):
                        t = tm if sm >= -TOUCH else pw.root(lambda x: f(i, x), ta, tm, va[i], sm)
            if t is not None and (best is None or t < best[0]):
                best = (t, i)
        if best:
            return best
        ta, va, da = tb, vb, db
        first = False
    return None, None


def run(sys_, x0, v0, t_end, h=mpf("0.05")):
    """Simulates to t_end; returns (Record, summary)."""
    names = sys_.names
    rec = pw.Record(names)
    n, nf = sys_.n, len(sys_.fr)
    Y = [mpf(0)] * sys_.dim
    for i in range(n):
        Y[sys_.xi(i)], Y[sys_.vi(i)] = mpf(x0[i]), mpf(v0[i])
    Y[2 * n], Y[2 * n + 1], Y[-1] = mpf(0), mpf(1), mpf(1)
    t = mpf(0)
    state = []
    fresh = []
    for k in range(nf):
        u = sys_.slip(k, Y)
        state.append(0 if u == 0 else (1 if u > 0 else -1))
        if u == 0:
            fresh.append(k)
    state = decide(sys_, state, Y, rec, t, fresh=fresh)
    log = []
    while True:
        A, lam = sys_.matrix(state)
        traj = Trajectory(A, t, Y)
        rec.segment(t, (lambda tr: lambda x: tr.d(x)[:2 * n])(traj),
                    ",".join(str(s) for s in state))
        fns, which = [], []
        for k in range(nf):
            f = sys_.fr[k]
            cap = f["mus"] * f["N"]
            if state[k] == 0:
                up = [-c for c in lam[k]]
                up[-1] += cap
                dn = list(lam[k])
                dn[-1] += cap
                fns += [up, dn]
                which += [(k, "up"), (k, "down")]
            else:
                row = [mpf(0)] * sys_.dim
                for i in range(n):
                    row[sys_.vi(i)] = state[k] * f["w"][i]
                row[-1] = -state[k] * f["c"]
                fns.append(row)
                which.append((k, "slip"))
        te, idx = first_event(fns, traj, t, mpf(t_end), h)
        if te is None:
            return rec, log
        Y = traj.d(te)
        t = te
        k, what = which[idx]
        new = list(state)
        forced = None
        if what == "up":
            new[k], forced = -1, k
        elif what == "down":
            new[k], forced = 1, k
        else:
            new[k] = 0
            for i in range(n):      # the slip is 0 here: remove its rounding
                pass
        state = decide(sys_, new, Y, rec, t, ref=state, forced=forced)
        log.append((t, k, what, list(state), [Y[i] for i in range(2 * n)]))


def decide(sys_, state, Y, rec, t, ref=None, forced=None, fresh=()):
    """Stick where admissible: every element at zero slip (state 0) stuck,
    then the one furthest beyond mu_s N released against its multiplier,
    until all stuck ones are admissible; logs the changes against ref."""
    state = list(state)
    while True:
        A, lam = sys_.matrix(state)
        worst, over = None, mpf(1)
        for k, form in lam.items():
            l = mp.fsum(a * b for a, b in zip(form, Y))
            cap = sys_.fr[k]["mus"] * sys_.fr[k]["N"]
            if abs(l) > cap * (1 + mpf(10) ** -30) and abs(l) / cap > over:
                worst, over, sign = k, abs(l) / cap, (-1 if l > 0 else 1)
        if worst is None:
            break
        state[worst] = sign
    for k in range(len(state)):
        name = sys_.fr[k]["name"]
        if k in fresh:
            rec.event(t, "stick" if state[k] == 0 else "slip", name)
        elif ref is None:
            continue
        elif ref[k] != 0 and state[k] == 0:
            rec.event(t, "stick", name)
        elif ref[k] == 0 and state[k] != 0:
            rec.event(t, "slip", name)
        elif ref[k] != 0 and state[k] != ref[k]:
            rec.event(t, "reversal", name)
    return state
