"""Reference for forced_impact_oscillator: its period-1 orbits, their
multipliers and the first period doubling.

x'' + 2 zeta x' + x = cos(omega t) for x < 0 (m = k = F = 1, zeta = 0.05), a
rigid stop at x = 0 (the equilibrium), impact v+ = -e v- (e = 0.8).

A period-1 orbit impacts once per forcing period T = 2 pi/omega: just
before its impact at t0 the mass arrives at x = 0 with speed u > 0, leaves
with -e u and arrives again at t0 + T with speed u.  Between impacts the
motion is the closed form of the forced damped oscillator (homogeneous
part from the state just after the impact, plus the particular solution
A cos(omega t) + B sin(omega t)).  Since the particular part is T-periodic,
x(t0 + T) = 0 is linear in u: it gives u(t0), and the orbit is a zero of
r(t0) = v(t0 + T) - u(t0), isolated on a grid of t0 over one period and
refined by findroot.  An orbit counts when u > 0 and x < 0 strictly between
its impacts (checked on 2000 interior points).

The multipliers are the eigenvalues of the Jacobian of the impact map
(u, t0) -> (u', t0') (the next arrival at x = 0, located on the closed form),
by central differences in 40-digit arithmetic: a method independent of the
saltation matrices the runtime uses.  Self-check: their product is
e^2 exp(-2 zeta T) (Liouville's formula for the flight, e^2 for the impact).
The first period doubling is where one multiplier reaches -1, that is
1 + tr J + det J = 0, located by bisection on omega to 1e-20 along the
branch of period-1 orbits.

Writes data/forced_impact_oscillator.period1.csv (omega, phase = t0/T mod 1,
u, t0, the multipliers) and data/forced_impact_oscillator.doubling.csv;
--check recomputes and compares (1e-20).
"""
import os
import sys

from mpmath import mp, mpf

mp.dps = 40

ZETA, E = mpf("0.05"), mpf("0.8")
OMEGAS = [mpf(150 + 5 * i) / 100 for i in range(22)]   # 1.50, 1.55, ..., 2.55
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def particular(w):
    """A, B of the particular solution A cos(w t) + B sin(w t)."""
    D = (1 - w ** 2) ** 2 + (2 * ZETA * w) ** 2
    return (1 - w ** 2) / D, 2 * ZETA * w / D


def flow(w, t0, x0, v0):
    """x(t), v(t) of the free flight from (x0, v0) at t0."""
    A, B = particular(w)
    wd = mp.sqrt(1 - ZETA ** 2)
    C1 = x0 - (A * mp.cos(w * t0) + B * mp.sin(w * t0))
    C2 = (v0 - (-A * w * mp.sin(w * t0) + B * w * mp.cos(w * t0)) + ZETA * C1) / wd

    def x(t):
        s = t - t0
        return (mp.exp(-ZETA * s) * (C1 * mp.cos(wd * s) + C2 * mp.sin(wd * s))
                + A * mp.cos(w * t) + B * mp.sin(w * t))

    def v(t):
        s = t - t0
        c, sn = mp.cos(wd * s), mp.sin(wd * s)
        return (mp.exp(-ZETA * s) * (-ZETA * (C1 * c + C2 * sn) + wd * (-C1 * sn + C2 * c))
                - A * w * mp.sin(w * t) + B * w * mp.cos(w * t))
    return x, v


def u_of(w, t0):
    """The arrival speed that makes x(t0 + T) = 0 after leaving with -e u."""
    T = 2 * mp.pi / w
    A, B = particular(w)
    wd = mp.sqrt(1 - ZETA ** 2)
    C1 = -(A * mp.cos(w * t0) + B * mp.sin(w * t0))
    C2 = C1 * (mp.exp(ZETA * T) - mp.cos(wd * T)) / mp.sin(wd * T)
    vp = -A * w * mp.sin(w * t0) + B * w * mp.cos(w * t0)
    return -(C2 * wd + vp - ZETA * C1) / E


def residual(w, t0):
    u = u_of(w, t0)
    x, v = flow(w, t0, 0, -E * u)
    return v(t0 + 2 * mp.pi / w) - u


def admissible(w, t0, u):
    """u > 0 and the flight stays below the stop between the impacts."""
    if u <= 0:
        return False
    T = 2 * mp.pi / w
    x, _ = flow(w, t0, 0, -E * u)
    return all(x(t0 + T * j / 2000) < 0 for j in range(1, 2000))


def period1_orbits(w):
    """Every admissible period-1 orbit at w: (t0 in [0, T), u)."""
    T = 2 * mp.pi / w
    n = 400
    ts = [T * i / n for i in range(n + 1)]
    rs = [residual(w, t) for t in ts]
    out = []
    for i in range(n):
        if (rs[i] > 0) == (rs[i + 1] > 0):
            continue
        t0 = mp.findroot(lambda t: residual(w, t), (ts[i], ts[i + 1]), solver="anderson")
        t0 = t0 % T
        u = u_of(w, t0)
        if admissible(w, t0, u):
            out.append((t0, u))
    return out


def impact_map(w, t0, u, guess=None):
    """The next arrival at x = 0 after leaving it with -e u at t0: (t1, u1);
    from a guess (a nearby orbit's arrival, for the differences), by
    Newton, else by a scan of the flight."""
    x, v = flow(w, t0, 0, -E * u)
    if guess is not None:
        t1 = mp.findroot(x, guess, df=v, solver="newton")
        return t1, v(t1)
    T = 2 * mp.pi / w
    n = 800
    for i in range(2, 4 * n):
        t = t0 + T * i / n
        if x(t) >= 0:
            t1 = mp.findroot(x, (t - T / n, t), solver="anderson")
            return t1, v(t1)
    raise RuntimeError("no impact within four periods")


def jacobian(w, t0, u):
    """Jacobian of (u, t0) -> (u1, t1) by central differences."""
    h = mpf("1e-15")
    J = mp.matrix(2, 2)
    t1, _ = impact_map(w, t0, u)
    for j, (du, dt) in enumerate(((h, 0), (0, h))):
        tp, up = impact_map(w, t0 + dt, u + du, t1)
        tm, um = impact_map(w, t0 - dt, u - du, t1)
        J[0, j] = (up - um) / (2 * h)
        J[1, j] = (tp - tm) / (2 * h)
    return J


def stable_orbit(w, near=None):
    """The stable period-1 orbit at w (the one nearest `near`, a phase)."""
    best = None
    for t0, u in period1_orbits(w):
        J = jacobian(w, t0, u)
        mus = mp.eig(J)[0]
        if max(abs(m) for m in mus) >= 1 and near is None:
            continue
        ph = (w * t0 / (2 * mp.pi)) % 1
        key = abs(ph - near) if near is not None else 0
        if best is None or key < best[0]:
            best = (key, t0, u, J, mus)
    if best is None:
        raise RuntimeError("no stable period-1 orbit at omega = %s" % w)
    return best[1:]


def expect(cond, what):
    if not cond:
        raise SystemExit("self-check failed: " + what)


def follow(w, ph):
    """The period-1 orbit at w whose phase is near ph, by findroot from it."""
    T = 2 * mp.pi / w
    t0 = mp.findroot(lambda t: residual(w, t), ph * T, solver="secant") % T
    return t0, u_of(w, t0)


def doubling(lo, hi, ph):
    """omega where 1 + tr J + det J = 0 between lo and hi (bisection),
    following the branch of period-1 orbits from phase ph."""
    def g(w):
        nonlocal ph
        t0, u = follow(w, ph)
        ph = (w * t0 / (2 * mp.pi)) % 1
        J = jacobian(w, t0, u)
        return 1 + J[0, 0] + J[1, 1] + mp.det(J)
    glo, ghi = g(lo), g(hi)
    expect(glo > 0 > ghi, "the doubling is bracketed")
    while hi - lo > mpf("1e-20"):
        mid = (lo + hi) / 2
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def fmt(x):
    return mp.nstr(x, 25, min_fixed=-5, max_fixed=5, strip_zeros=False)


def compute():
    rows = ["omega,phase,u,t0,mu1_re,mu1_im,mu2_re,mu2_im"]
    last_phase = None
    for w in OMEGAS:
        t0, u, J, mus = stable_orbit(w)
        T = 2 * mp.pi / w
        expect(abs(mp.det(J) - E ** 2 * mp.exp(-2 * ZETA * T)) < mpf("1e-20"),
               "product of the multipliers at omega = %s" % w)
        expect(abs(residual(w, t0)) < mpf("1e-30"), "fixed point at omega = %s" % w)
        mus = sorted(mus, key=lambda m: (float(mp.re(m)), float(mp.im(m))))
        last_phase = (w * t0 / (2 * mp.pi)) % 1
        rows.append(",".join(fmt(z) for z in (w, last_phase, u, t0, mp.re(mus[0]), mp.im(mus[0]),
                                              mp.re(mus[1]), mp.im(mus[1]))))
    wpd = doubling(mpf("2.55"), mpf("2.7"), last_phase)
    t0, u = follow(wpd, last_phase)
    expect(admissible(wpd, t0, u), "the orbit at the doubling stays below the stop")
    mus = mp.eig(jacobian(wpd, t0, u))[0]
    expect(min(abs(m + 1) for m in mus) < mpf("1e-15"), "a multiplier is -1 at the doubling")
    pd = ["omega_pd,phase,u", ",".join(fmt(z) for z in (wpd, (wpd * t0 / (2 * mp.pi)) % 1, u))]
    return {"period1": "\n".join(rows) + "\n", "doubling": "\n".join(pd) + "\n"}


def main():
    out = compute()
    check = "--check" in sys.argv
    bad = 0
    for key, text in out.items():
        path = os.path.join(DATA, "forced_impact_oscillator.%s.csv" % key)
        if not check:
            with open(path, "w") as f:
                f.write(text)
            continue
        with open(path) as f:
            old = [r.split(",") for r in f.read().split("\n") if r]
        new = [r.split(",") for r in text.split("\n") if r]
        same = len(old) == len(new) and old[0] == new[0] and all(
            len(a) == len(b) and all(abs(mpf(x) - mpf(y)) <= mpf("1e-20") for x, y in zip(a, b))
            for a, b in zip(old[1:], new[1:]))
        print("%s %s" % ("ok  " if same else "FAIL", path))
        bad += not same
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
