"""The touching Hertzian chain (models/hertz_wave.nsm) integrated in mpmath,
independently of nsm: the reference of the solitary wave.

    python3 wave_ref.py [--out FILE.json] [--check]

n equal beads (mass m) on a line, all at x = 0 (touching, no
precompression), bead 1 moving at v; between beads i and i+1 the overlap
d_i = x_i - x_{i+1} pushes them apart with k d_i^(3/2) while d_i > 0:

    m x_i'' = k [d_{i-1}]_+^(3/2) - k [d_i]_+^(3/2).

Method (30 digits):
- [0, t0], t0 = 1e-9 s: only contact 1 carries a force that matters (bead
  2 has moved 4e-23 m, bead 3 1e-42 m): the two-body Hertz collision, its
  overlap found from the energy integral t0 = int_0^d dp/sqrt(v^2 -
  (4k/5mu) p^(5/2)) by quadrature and findroot (mu = m/2);
- then a Taylor integrator written here: every x_i, u_i expanded to order
  N by the automatic-differentiation recurrences (d^a by the power rule
  d0 w_n = (1/n) sum_j ((a+1) j - n) d_j w_{n-j}, Jorba & Zou 2005), the
  step from the decay of the last two orders (h = (tol/|c_N|)^(1/N)/2 over
  every series, scaled);
- a contact whose overlap is below EPS_ON (1e-30 m: a force below 3e-36 N,
  whose neglect moves nothing by 1e-40 m over the run) exerts nothing;
  a contact's overlap crossing 0 downward inside a step (a separation)
  ends the step there (the step polynomial's root, findroot), the overlap
  set to 0 and the contact idle; an idle contact's overlap crossing 0
  upward (a re-engagement) likewise, with its first 1e-13 s at the entry
  rate w taken force-free (the force k (w t)^(3/2) has no series at the
  entry: the neglect is below 1e-32 m).
Records: each contact's force peaks (d_i' = 0, d_i'' < 0: the overlap's
maxima) and each bead's velocity peaks (u_i' = 0, u_i'' < 0), the
separations and re-engagements, and the state on a grid of instants.
The wave's speed in beads per second: the least-squares slope of contact
i's first force peak against i over the contacts 5..15 (where the wave has
formed and the far end is not yet felt), inverted.

--check runs the integration again at another order and tolerance (N = 24,
tol 1e-22) and prints the largest difference of every recorded instant
and state: the reference's own accuracy.
"""
import argparse
import json
import sys

from mpmath import mp, mpf

mp.dps = 32
EPS_ON = mpf("1e-30")
ENTRY_FREE = mpf("1e-13")
DV_OFF = mpf("1e-24")

# the model's parameters (models/hertz_wave.nsm)
PARAMS = dict(n=20, m="0.1", k="1e9", v="1", t_end="0.003", every="1e-5")


def load(path):
    """The reference from a JSON file wave_ref.py wrote (--out), computed
    here (and written there) when the file is missing; the instants and
    states as mpf."""
    import os
    if path and os.path.exists(path):
        with open(path) as f:
            js = json.load(f)
    else:
        js = to_json(integrate())
        if path:
            with open(path, "w") as f:
                json.dump(js, f)
    ev = lambda r: [[mpf(t) for t in ts] for ts in r]
    return {"force_peak": ev(js["force_peak"]), "vel_peak": ev(js["vel_peak"]),
            "separation": ev(js["separation"]), "engage": ev(js["engage"]),
            "grid": [(mpf(t), [mpf(x) for x in xs], [mpf(u) for u in us]) for t, xs, us in js["grid"]],
            "wave_speed": mpf(js["wave_speed"]), "vel_speed": mpf(js["vel_speed"])}


def two_body(m, k, v, t0):
    """The two-body Hertz collision's overlap d and rate at t0 (energy
    integral, mu = m/2): d' = sqrt(v^2 - (4k/5mu) d^(5/2))."""
    mu = m / 2
    c = 4 * k / (5 * mu)
    rate = lambda d: mp.sqrt(v * v - c * d ** mpf(2.5))
    tof = lambda d: mp.quad(lambda p: 1 / rate(p), [0, d])
    d = mp.re(mp.findroot(lambda d: tof(d) - t0, v * t0))
    return d, mp.re(rate(d))


def pow_k(d, w, a, n):
    """Order n of w = d^a from d's orders 0..n and w's 0..n-1 (power rule)."""
    r = mpf(0)
    for j in range(1, n + 1):
        r += ((a + 1) * j - n) * d[j] * w[n - j]
    return r / (n * d[0])


class Chain:
    """The chain's state and which contacts carry a force."""

    def __init__(self, n, m, k, v):
        self.n, self.m, self.k, self.v = n, m, k, v
        self.x = [mpf(0)] * n
        self.u = [mpf(0)] * n
        self.active = [False] * (n - 1)
        self.fading = [False] * (n - 1)

    def overlap(self, i):
        return self.x[i] - self.x[i + 1]

    def series(self, N):
        """Every x_i, u_i and overlap d_i to order N about the current state."""
        n, a = self.n, mpf("1.5")
        X = [[xi] + [mpf(0)] * N for xi in self.x]
        U = [[ui] + [mpf(0)] * N for ui in self.u]
        D = [[mpf(0)] * (N + 1) for _ in range(n - 1)]
        W = [[mpf(0)] * (N + 1) for _ in range(n - 1)]
        km = self.k / self.m
        for o in range(N):
            for i in range(n - 1):
                D[i][o] = X[i][o] - X[i + 1][o]
                if self.active[i] and not self.fading[i]:
                    W[i][o] = D[i][0] ** a if o == 0 else pow_k(D[i], W[i], a, o)
            for i in range(n):
                acc = (W[i - 1][o] if i > 0 else 0) - (W[i][o] if i < n - 1 else 0)
                X[i][o + 1] = U[i][o] / (o + 1)
                U[i][o + 1] = km * acc / (o + 1)
        for i in range(n - 1):
            D[i][N] = X[i][N] - X[i + 1][N]
        return X, U, D

    def step_size(self, X, U, N, tol, hmax):
        """Jorba & Zou's step from the last two orders, positions scaled by
        the largest position or overlap met and velocities by v."""
        xs = max([abs(x) for x in self.x] + [mpf("1e-6")])
        h = hmax
        for o in (N - 1, N):
            c = max(max(abs(Xi[o]) for Xi in X) / xs, max(abs(Ui[o]) for Ui in U) / self.v)
            if c > 0:
                h = min(h, (tol / c) ** (mpf(1) / o) / 2)
        return h


def poly(c, h):
    """The series c at tau = h (Horner)."""
    r = mpf(0)
    for a in reversed(c):
        r = r * h + a
    return r


def deriv(c):
    """The series of the derivative."""
    return [c[j] * j for j in range(1, len(c))]


def first_root(c, h, sign):
    """The first tau in (0, h] where the series c changes sign from sign
    (+1: from positive to negative, -1: the reverse), or None: a scan over
    8 subintervals, then findroot on the bracket."""
    prev = poly(c, 0)
    grid = [h * j / 8 for j in range(1, 9)]
    lo = mpf(0)
    for t in grid:
        val = poly(c, t)
        if sign * prev > 0 and sign * val <= 0:
            return mp.findroot(lambda s: poly(c, s), (lo, t), solver="anderson")
        prev, lo = val, t
    return None


def integrate(N=30, tol=mpf("1e-28"), p=PARAMS, progress=False):
    """The whole run: records and the state on the output grid."""
    n, m, k, v = p["n"], mpf(p["m"]), mpf(p["k"]), mpf(p["v"])
    t_end, every = mpf(p["t_end"]), mpf(p["every"])
    ch = Chain(n, m, k, v)
    t0 = mpf("1e-9")
    with mp.workdps(64):
        d, w = two_body(m, k, v, t0)
        c = v * t0 / 2
        ch.x[0], ch.x[1] = c + d / 2, c - d / 2
        ch.u[0], ch.u[1] = v / 2 + w / 2, v / 2 - w / 2
    ch.x = [mpf(x) for x in ch.x]
    ch.u = [mpf(u) for u in ch.u]
    rec = {"force_peak": [[] for _ in range(n - 1)], "vel_peak": [[] for _ in range(n)],
           "separation": [[] for _ in range(n - 1)], "engage": [[] for _ in range(n - 1)],
           "grid": []}
    t = t0
    nxt = every
    steps = 0
    drop = DV_OFF * v * 5 * m / (2 * k)
    while t < t_end:
        for i in range(n - 1):
            if not ch.active[i] and ch.overlap(i) > EPS_ON and not rec["separation"][i]:
                ch.active[i] = True
            rate = ch.u[i] - ch.u[i + 1]
            if ch.active[i] and rate < 0 and ch.overlap(i) ** mpf(2.5) < drop * -rate:
                ch.fading[i] = True
        X, U, D = ch.series(N)
        h = min(ch.step_size(X, U, N, tol, t_end - t), t_end - t)
        cut, what = h, None
        for i in range(n - 1):
            if ch.active[i]:
                r = first_root(D[i], h, +1)
                if r is not None and r < cut:
                    cut, what = r, ("separation", i)
            elif rec["separation"][i]:
                r = first_root(D[i], h, -1)
                if r is not None and r < cut:
                    cut, what = r, ("engage", i)
        # force and velocity peaks on (0, cut]
        for i in range(n - 1):
            if ch.active[i]:
                r = first_root(deriv(D[i]), cut, +1)
                if r is not None:
                    rec["force_peak"][i].append(t + r)
        for i in range(n):
            r = first_root(deriv(U[i]), cut, +1)
            if r is not None and abs(poly(U[i], r)) > v * mpf("1e-9"):
                rec["vel_peak"][i].append(t + r)
        while nxt <= t + cut and nxt <= t_end:
            tau = nxt - t
            rec["grid"].append((nxt, [poly(Xi, tau) for Xi in X], [poly(Ui, tau) for Ui in U]))
            nxt += every
        ch.x = [poly(Xi, cut) for Xi in X]
        ch.u = [poly(Ui, cut) for Ui in U]
        t += cut
        steps += 1
        if progress and steps % 100 == 0:
            print("wave_ref: step %d, t = %s" % (steps, mp.nstr(t, 8)), file=sys.stderr, flush=True)
        if what and what[0] == "separation":
            i = what[1]
            ch.active[i] = ch.fading[i] = False
            rec["separation"][i].append(t)
        elif what:
            i = what[1]
            rec["engage"][i].append(t)
            # the first ENTRY_FREE s force-free, then the power law's series
            X, U, D = ch.series(2)
            ch.x = [poly(Xi, ENTRY_FREE) for Xi in X]
            ch.u = [poly(Ui, ENTRY_FREE) for Ui in U]
            t += ENTRY_FREE
            ch.active[i] = ch.overlap(i) > 0
    rec["steps"] = steps
    rec["final"] = (t, ch.x, ch.u)
    return rec


def wave_speed(rec, first=5, last=15, key="force_peak"):
    """Beads per second: least squares of contact i's first force peak
    (key vel_peak: bead i's first velocity peak) against i (i = first..last,
    numbered from 1), inverted."""
    pts = [(mpf(i), rec[key][i - 1][0]) for i in range(first, last + 1)]
    n = len(pts)
    mi = sum(i for i, _ in pts) / n
    mt = sum(t for _, t in pts) / n
    slope = sum((i - mi) * (t - mt) for i, t in pts) / sum((i - mi) ** 2 for i, _ in pts)
    return 1 / slope


def to_json(rec):
    """The records as strings (30 digits)."""
    s = lambda x: mp.nstr(x, 30)
    return {"force_peak": [[s(t) for t in r] for r in rec["force_peak"]],
            "vel_peak": [[s(t) for t in r] for r in rec["vel_peak"]],
            "separation": [[s(t) for t in r] for r in rec["separation"]],
            "engage": [[s(t) for t in r] for r in rec["engage"]],
            "grid": [[s(t), [s(x) for x in xs], [s(u) for u in us]] for t, xs, us in rec["grid"]],
            "wave_speed": s(wave_speed(rec)), "vel_speed": s(wave_speed(rec, key="vel_peak")),
            "vmax": [s(max(us[i] for _, _, us in rec["grid"])) for i in range(len(rec["vel_peak"]))],
            "steps": rec["steps"]}


def compare(a, b):
    """The largest difference between two runs' instants and states."""
    worst = {"instants": mpf(0), "states": mpf(0)}
    for key in ("force_peak", "vel_peak", "separation", "engage"):
        for ra, rb in zip(a[key], b[key]):
            if len(ra) != len(rb):
                raise SystemExit("wave_ref: %s counts differ between the runs" % key)
            for x, y in zip(ra, rb):
                worst["instants"] = max(worst["instants"], abs(x - y))
    for (ta, xa, ua), (tb, xb, ub) in zip(a["grid"], b["grid"]):
        for x, y in zip(xa + ua, xb + ub):
            worst["states"] = max(worst["states"], abs(x - y))
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    rec = integrate(progress=True)
    js = to_json(rec)
    print("wave_ref: %d steps, wave speed %s beads/s (force peaks), %s (velocity peaks)" %
          (rec["steps"], js["wave_speed"], js["vel_speed"]))
    print("wave_ref: largest velocity of beads 5..15 on the grid: %s" % js["vmax"][4:15])
    for i in range(PARAMS["n"] - 1):
        print("  contact %2d: force peaks %s, separations %s, engagements %s" %
              (i + 1, [mp.nstr(t, 15) for t in rec["force_peak"][i]],
               [mp.nstr(t, 15) for t in rec["separation"][i]],
               [mp.nstr(t, 15) for t in rec["engage"][i]]))
    if args.check:
        other = integrate(N=24, tol=mpf("1e-22"))
        w = compare(rec, other)
        print("wave_ref: against N = 24, tol 1e-22: instants within %s s, states within %s" %
              (mp.nstr(w["instants"], 3), mp.nstr(w["states"], 3)))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(js, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
