"""Reference for the energetic multiple-impact law (runtime/src/multiimpact.c).

The law of Liu, Zhao and Brogliato is the rigid limit of compliant contacts:
a ball chain whose contacts push with k d^eta while they load and, with the
bi-stiffness restitution, k ((d - dr)/e^2)^eta while they unload (dr =
(1 - e^2) d_max, the unloading curve that releases e^2 of the stored energy),
gives the law's post-impact velocities whatever the common scale of k (the
time scale drops out).  This script integrates that compliant chain in TIME
(positions, velocities and real overlaps, not the kernel's energies and
impulse parameter), in mpmath at 30 digits: classical Runge-Kutta steps of
h = 1/400, every event (contact, maximal compression, separation) landed
on by bisection to 1e-26 and the steps after it graded (at most 1/16 of the
time since the event, and before a separation 1/16 of the time left to it,
from h 2^-30: a Hertz force d^1.5 is not smooth where d starts from 0 or
returns to it), and the whole run repeated with h/2; the h/2 run is
the reference, the difference between the two its error bound (checked
below 5e-12).  Each contact must load, unload and separate once
(a second contact is outside this reference: the law forgets a separated
contact's gap); the script stops if not.

Cases: balls of mass 1, contacts k = 1, ball 0 strikes the others (at rest,
touching) at 1 m/s.  Written: data/lzb_chain.csv, one line per case
  name n eta e v_0 ... v_{n-1} loss stored
with loss the kinetic energy lost and stored the sum of (1 - e^2) E_max over
the contacts (the energetic restitution's prediction of the loss).

usage: lzb_chain.py [--check]
"""
import os
import sys

from mpmath import mp, mpf

mp.dps = 30
H = mpf(1) / 400
EV_TOL = mpf("1e-26")
GRADE = mpf(1) / 16                  # after an event a step is at most this times the time since
CASES = [("chain3_linear", 3, 1, 1), ("chain3_hertz", 3, mpf(3) / 2, 1),
         ("chain5_linear", 5, 1, 1), ("chain5_hertz", 5, mpf(3) / 2, 1),
         ("chain3_hertz_e08", 3, mpf(3) / 2, mpf("0.8")),
         ("chain5_linear_e09", 5, 1, mpf("0.9"))]
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "lzb_chain.csv")


class Chain:
    """n unit masses, contact j between balls j and j+1 (overlap x_j - x_{j+1})."""

    def __init__(self, n, eta, e):
        self.n, self.eta, self.e = n, eta, e
        self.phase = ["open"] * (n - 1)     # open, load, unload, done
        self.dr = [mpf(0)] * (n - 1)        # residual overlap while unloading
        self.emax = [mpf(0)] * (n - 1)      # energy stored at the maximal compression

    def force(self, j, d):
        """Contact j's force at overlap d in its phase."""
        if self.phase[j] == "load":
            return d ** self.eta if d > 0 else mpf(0)
        if self.phase[j] == "unload":
            u = (d - self.dr[j]) / self.e ** 2
            return u ** self.eta if u > 0 else mpf(0)
        return mpf(0)

    def rates(self, y):
        n = self.n
        x, v = y[:n], y[n:]
        a = [mpf(0)] * n
        for j in range(n - 1):
            f = self.force(j, x[j] - x[j + 1])
            a[j] -= f
            a[j + 1] += f
        return v + a

    def step(self, y, h):
        k1 = self.rates(y)
        k2 = self.rates([yi + h / 2 * ki for yi, ki in zip(y, k1)])
        k3 = self.rates([yi + h / 2 * ki for yi, ki in zip(y, k2)])
        k4 = self.rates([yi + h * ki for yi, ki in zip(y, k3)])
        return [yi + h / 6 * (a + 2 * b + 2 * c + d) for yi, a, b, c, d in zip(y, k1, k2, k3, k4)]

    def reach(self, y, h):
        """The step allowed by the unloading contacts: at most GRADE times the
        time left to their separation (the force (d - dr)^eta is not smooth
        there), from h 2^-30."""
        n, best = self.n, h
        for j in range(n - 1):
            if self.phase[j] == "unload":
                u, rate = y[j] - y[j + 1] - self.dr[j], y[n + j] - y[n + j + 1]
                if rate < 0:
                    best = min(best, max(h / 2 ** 30, GRADE * u / -rate))
        return best

    def events(self, y):
        """Per contact the function whose sign change is its next event."""
        n, g = self.n, []
        for j in range(n - 1):
            d, dv = y[j] - y[j + 1], y[n + j] - y[n + j + 1]
            p = self.phase[j]
            g.append(d if p == "open" else dv if p == "load" else d - self.dr[j])
        return g

    def switch(self, j, y):
        """Contact j's event at y: its next phase."""
        p = self.phase[j]
        d = y[j] - y[j + 1]
        if p == "open":
            self.phase[j] = "load"
        elif p == "load":
            self.phase[j] = "unload"
            self.dr[j] = (1 - self.e ** 2) * d
            self.emax[j] = d ** (self.eta + 1) / (self.eta + 1)
        else:
            self.phase[j] = "done"
        assert p != "done", "case outside the reference: contact %d closes again" % j


def run(n, eta, e, h):
    c = Chain(n, eta, e)
    y = [mpf(0)] * (2 * n)
    y[n] = mpf(1)
    c.phase[0] = "load"               # ball 0 touches ball 1 at t = 0, closing at 1 m/s
    since = mpf(0)                    # time since the last event: steps grow from it
    while True:
        n_open = [j for j in range(n - 1) if c.phase[j] in ("load", "unload")]
        rel = [y[n + j + 1] - y[n + j] for j in range(n - 1)]
        if not n_open and all(r >= 0 for r in rel):
            break
        # contacts still touching with overlap 0 and closing: they load
        for j in range(n - 1):
            if c.phase[j] == "open" and y[j] - y[j + 1] >= 0 and rel[j] < 0:
                c.phase[j] = "load"
        hs = min(h, max(h / 2 ** 30, GRADE * since), c.reach(y, h))
        g0 = c.events(y)
        y1 = c.step(y, hs)
        g1 = c.events(y1)
        hit = [j for j in range(n - 1)
               if (g0[j] > 0 and g1[j] <= 0) or (g0[j] < 0 and g1[j] >= 0)]
        # an open contact at zero overlap that starts closing is not an event here
        hit = [j for j in hit if not (c.phase[j] == "open" and g0[j] == 0)]
        if not hit:
            y, since = y1, since + hs
            continue
        lo, hi = mpf(0), hs
        while hi - lo > EV_TOL:
            mid = (lo + hi) / 2
            gm = c.events(c.step(y, mid))
            if any((g0[j] > 0 and gm[j] <= 0) or (g0[j] < 0 and gm[j] >= 0) for j in hit):
                hi = mid
            else:
                lo = mid
        y = c.step(y, hi)
        g = c.events(y)
        for j in hit:
            if (g0[j] > 0 and g[j] <= 0) or (g0[j] < 0 and g[j] >= 0):
                c.switch(j, y)
        since = mpf(0)
    v = y[n:]
    loss = mpf(1) / 2 - sum(vi ** 2 for vi in v) / 2
    stored = sum((1 - e ** 2) * em for em in c.emax)
    assert all(p in ("done", "open") for p in c.phase)
    return v, loss, stored


def compute():
    lines = []
    for name, n, eta, e in CASES:
        v1, l1, s1 = run(n, mpf(eta), mpf(e), H)
        v2, l2, s2 = run(n, mpf(eta), mpf(e), H / 2)
        v, loss, stored = v2, l2, s2
        err = max(abs(b - a) for a, b in zip(v1, v2))
        assert err < mpf("5e-12"), "%s: h and h/2 differ by %s" % (name, mp.nstr(err, 3))
        # self-checks: momentum 1, and the loss is the energetic restitution's
        assert abs(sum(v) - 1) < mpf("1e-20"), name + ": momentum"
        assert abs(loss - stored) < mpf("1e-10"), name + ": loss against (1 - e^2) E_max"
        if e == 1:
            assert abs(loss) < mpf("1e-10"), name + ": energy"
        lines.append(" ".join([name, str(n), mp.nstr(mpf(eta), 5), mp.nstr(mpf(e), 5)]
                              + [mp.nstr(x, 22) for x in v + [loss, stored]]))
        print(lines[-1], " (h vs h/2: %s)" % mp.nstr(err, 3), file=sys.stderr)
    return "\n".join(lines) + "\n"


def main():
    text = compute()
    if "--check" in sys.argv:
        old = open(DATA).read().split("\n")
        new = text.split("\n")
        ok = len(old) == len(new)
        for a, b in zip(old, new):
            fa, fb = a.split(), b.split()
            ok = ok and fa[:4] == fb[:4] and len(fa) == len(fb) and all(
                abs(mpf(x) - mpf(y)) < mpf("1e-18") for x, y in zip(fa[4:], fb[4:]))
        print("lzb_chain: " + ("ok" if ok else "DIFFERS from data/lzb_chain.csv"))
        return 0 if ok else 1
    with open(DATA, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
