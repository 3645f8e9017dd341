"""Closed-form piecewise solutions of linear modes, exact event location, output.

Every benchmark of nsm is piecewise linear: inside a mode the state obeys
y' = A y + b(t) with b(t) = b0 + bs sin(w t) + bc cos(w t).  This module solves
such a mode in closed form (eigen-decomposition of A, or the finite Taylor
series when A is nilpotent, as in free flight under gravity), locates the zeros
of affine functions of y and y' along that solution to full working precision
(grid bracketing on the function and on its derivative, so grazing minima are
not missed, then a bracketed secant/bisection iteration), and writes the event
and sample files.  Nothing here integrates an ODE numerically.
"""
import os
import sys
from bisect import bisect_right

from mpmath import mp, mpf, mpc

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
CHECK_TOL = mpf("1e-20")


# ---------------------------------------------------------------- modes

class Mode:
    """A linear mode y' = A y + b0 + bs sin(w t) + bc cos(w t), A diagonalizable.

    Solved through A = V diag(lam) V^-1: each modal coordinate obeys
    z' = lam z + beta(t), whose solution is a particular part (constant plus
    sinusoid) plus (z(t0) - zp(t0)) exp(lam (t - t0)).
    """

    def __init__(self, A, b0=None, bs=None, bc=None, w=0):
        A = mp.matrix(A)
        n = A.rows
        self.n = n
        self.w = mpf(w)
        lam, V = mp.eig(A)
        Vi = mp.inverse(V)
        cond = mp.mnorm(V, 1) * mp.mnorm(Vi, 1)
        if cond > mpf(10) ** (mp.dps // 3):
            raise ValueError("mode matrix is (nearly) defective; use NilpotentMode")
        self.lam = [mpc(x) for x in lam]
        self.V = [[mpc(V[i, j]) for j in range(n)] for i in range(n)]
        self.Vi = [[mpc(Vi[i, j]) for j in range(n)] for i in range(n)]
        zero = [mpf(0)] * n
        b0 = [mpf(x) for x in (b0 or zero)]
        bs = [mpf(x) for x in (bs or zero)]
        bc = [mpf(x) for x in (bc or zero)]
        beta0 = self.to_modal(b0)
        betas = self.to_modal(bs)
        betac = self.to_modal(bc)
        self.c = []
        self.P = []
        self.Q = []
        for i in range(n):
            l = self.lam[i]
            if abs(l) < mpf(10) ** (-mp.dps // 2):
                if abs(beta0[i]) > 0:
                    raise ValueError("constant forcing on a zero eigenvalue")
                self.c.append(mpc(0))
            else:
                self.c.append(-beta0[i] / l)
            w2 = l * l + self.w * self.w
            if abs(betas[i]) + abs(betac[i]) == 0:
                self.P.append(mpc(0))
                self.Q.append(mpc(0))
                continue
            if abs(w2) < mpf(10) ** (-mp.dps // 2):
                raise ValueError("resonant sinusoidal forcing")
            q = -(l * betac[i] + self.w * betas[i]) / w2
            self.Q.append(q)
            self.P.append((l * q + betac[i]) / self.w)
        mags = [abs(l) for l in self.lam] + [self.w]
        self.h = 2 * mp.pi / max(mags) / 64

    def to_modal(self, y):
        """Modal coordinates z = V^-1 y of a state vector."""
        return [mp.fsum(self.Vi[i][j] * y[j] for j in range(self.n)) for i in range(self.n)]

    def start(self, t0, y0):
        """The closed-form trajectory leaving state y0 at time t0."""
        return EigenTrajectory(self, mpf(t0), [mpf(x) for x in y0])


class EigenTrajectory:
    """Closed-form solution of a Mode from (t0, y0)."""

    def __init__(self, mode, t0, y0):
        self.mode = mode
        self.t0 = t0
        self.y0 = y0
        z0 = mode.to_modal(y0)
        self.amp = [z0[i] - self.particular(i, t0, 0) for i in range(mode.n)]

    def particular(self, i, t, k):
        """k-th derivative of the particular part of modal coordinate i at t."""
        m = self.mode
        r = m.c[i] if k == 0 else mpc(0)
        if m.P[i] != 0 or m.Q[i] != 0:
            ph = m.w * t + k * mp.pi / 2
            r += (m.P[i] * mp.sin(ph) + m.Q[i] * mp.cos(ph)) * m.w ** k
        return r

    def d(self, t, k=0):
        """k-th time derivative of the state at time t."""
        m = self.mode
        tau = t - self.t0
        z = []
        for i in range(m.n):
            l = m.lam[i]
            z.append(self.particular(i, t, k) + self.amp[i] * l ** k * mp.exp(l * tau))
        return [mp.re(mp.fsum(m.V[i][j] * z[j] for j in range(m.n))) for i in range(m.n)]

    def y(self, t):
        return self.d(t, 0)


class NilpotentMode:
    """A linear mode y' = A y + b0 with A nilpotent (free flight under gravity).

    The Taylor series of the solution terminates: y^(j)(t0) = A^j y0 + A^(j-1) b0.
    """

    def __init__(self, A, b0=None, h=mpf("0.05")):
        self.A = mp.matrix(A)
        self.n = self.A.rows
        self.b0 = mp.matrix([mpf(x) for x in (b0 or [0] * self.n)])
        p = self.A ** self.n
        if mp.mnorm(p, 1) != 0:
            raise ValueError("matrix is not nilpotent")
        self.h = mpf(h)

    def start(self, t0, y0):
        return NilpotentTrajectory(self, mpf(t0), [mpf(x) for x in y0])


class NilpotentTrajectory:
    """Polynomial solution of a NilpotentMode from (t0, y0)."""

    def __init__(self, mode, t0, y0):
        self.mode = mode
        self.t0 = t0
        self.y0 = y0
        D = [mp.matrix(y0)]
        for j in range(1, mode.n + 2):
            D.append(mode.A * D[-1] + (mode.b0 if j == 1 else 0 * mode.b0))
        self.D = [[D[j][i] for i in range(mode.n)] for j in range(len(D))]

    def d(self, t, k=0):
        tau = t - self.t0
        out = []
        for i in range(self.mode.n):
            # Horner form of sum_j D_j tau^(j-k)/(j-k)!
            s = mpf(0)
            for j in range(len(self.D) - 1, k - 1, -1):
                s = s * tau / (j - k + 1) + self.D[j][i]
            out.append(s)
        return out

    def y(self, t):
        return self.d(t, 0)


# ---------------------------------------------------------------- event functions

class LinearFn:
    """An event function s = cy . y + cdy . y' + const along a trajectory."""

    def __init__(self, cy, cdy=None, const=0):
        self.cy = [mpf(x) for x in cy]
        self.cdy = [mpf(x) for x in cdy] if cdy else None
        self.const = mpf(const)

    def at(self, traj, t, k=0):
        """k-th time derivative of the function at t."""
        y = traj.d(t, k)
        s = mp.fsum(a * b for a, b in zip(self.cy, y))
        if self.cdy:
            dy = traj.d(t, k + 1)
            s += mp.fsum(a * b for a, b in zip(self.cdy, dy))
        if k == 0:
            s += self.const
        return s


def tiny():
    """Threshold below which a derivative at an event instant counts as zero."""
    return mpf(10) ** (-(2 * mp.dps) // 3)


def start_order(fn, traj, t0, kmax=5):
    """Leading order m and sign of fn just after t0 (fn(t) ~ a (t-t0)^m)."""
    for k in range(kmax + 1):
        v = fn.at(traj, t0, k)
        if abs(v) > tiny():
            return k, v
    return kmax, mpf(0)


def root(f, a, b, fa, fb):
    """Zero of f in [a, b] with fa > 0 >= fb, to full precision (Illinois + bisection)."""
    eps = mpf(2) ** (8 - mp.prec) * max(1, abs(b))
    if fb == 0:
        return b
    side = 0
    for it in range(2000):
        if b - a <= eps:
            break
        if it % 4 == 3:
            c = (a + b) / 2
        else:
            c = b - fb * (b - a) / (fb - fa)
            if not (a < c < b):
                c = (a + b) / 2
        fc = f(c)
        if fc == 0:
            return c
        if fc > 0:
            a, fa = c, fc
            if side == 1:
                fb /= 2
            side = 1
        else:
            b, fb = c, fc
            if side == -1:
                fa /= 2
            side = -1
    return b


def first_zero(traj, fns, t0, t1, h, tau=None):
    """Earliest time in (t0, t1] where one of fns reaches zero from above.

    Every function must be >= 0 just after t0 (an exact zero at t0 is
    deflated by its order).  The grid starts with step min(h, tau/8) and
    doubles up to h, so short flights (Zeno cascades) are resolved; on each
    grid interval a sign change brackets a root, and a derivative going from
    negative to positive brackets a minimum whose value is checked, so a
    trajectory that dips below zero between grid points is not missed.
    Returns (t, index) or (None, None).
    """
    t0 = mpf(t0)
    t1 = mpf(t1)
    orders = []
    for fn in fns:
        m, lead = start_order(fn, traj, t0)
        if lead < 0:
            raise ValueError("event function negative at the start of a mode")
        orders.append((m, lead))
    step = h if tau is None else min(h, tau / 8)
    ta = t0
    va = [fn.at(traj, t0) for fn in fns]
    da = [fn.at(traj, t0, 1) for fn in fns]
    while ta < t1:
        tb = min(ta + step, t1)
        best = None
        vb = []
        db = []
        for i, fn in enumerate(fns):
            sb = fn.at(traj, tb)
            dsb = fn.at(traj, tb, 1)
            vb.append(sb)
            db.append(dsb)
            t = None
            if sb <= 0:
                t = bracket_root(fn, traj, t0, orders[i], ta, tb, va[i], sb)
            elif ta > t0 and da[i] < 0 < dsb:
                g = lambda x, fn=fn: -fn.at(traj, x, 1)
                tm = root(g, ta, tb, -da[i], -dsb)
                sm = fn.at(traj, tm)
                if sm <= 0:
                    t = bracket_root(fn, traj, t0, orders[i], ta, tm, va[i], sm)
            if t is not None and (best is None or t < best[0]):
                best = (t, i)
        if best:
            return best
        ta, va, da = tb, vb, db
        step = min(2 * step, h)
    return None, None


def bracket_root(fn, traj, t0, order, a, b, fa, fb):
    """Root of fn in [a, b]; when a is the mode start, the zero at t0 is divided out."""
    if a == t0 and order[0] > 0:
        m, lead = order
        q = lambda x: fn.at(traj, x) / (x - t0) ** m
        return root(q, a, b, lead / mp.factorial(m), q(b))
    if fb == 0:
        return b
    return root(lambda x: fn.at(traj, x), a, b, fa, fb)


# ---------------------------------------------------------------- recording

class Record:
    """Events and the piecewise state of a run, for the output files."""

    def __init__(self, names):
        self.names = names
        self.events = []
        self.seg_t = []
        self.seg_f = []
        self.seg_tag = []

    def event(self, t, kind, contact=""):
        self.events.append((mpf(t), kind, contact))

    def segment(self, t0, state, tag=""):
        """From t0 on, the full state (x1, v1, x2, v2, ...) is state(t); tag names the mode."""
        if self.seg_t and t0 < self.seg_t[-1]:
            raise ValueError("segments out of order")
        self.seg_t.append(mpf(t0))
        self.seg_f.append(state)
        self.seg_tag.append(tag)

    def audit(self, t_end, checks, points=16, tol=mpf("1e-35")):
        """Physics audit: on every segment, at interior points, checks[tag](t, state) >= -tol.

        Used to verify that no event was missed: gaps stay open in free
        flight, contact forces stay compressive in contact.
        """
        ends = self.seg_t[1:] + [mpf(t_end)]
        for t0, t1, f, tag in zip(self.seg_t, ends, self.seg_f, self.seg_tag):
            if tag not in checks or t1 <= t0:
                continue
            for j in range(1, points):
                t = t0 + (t1 - t0) * j / points
                v = checks[tag](t, f(t))
                if v < -tol:
                    raise AssertionError("audit failed: %s at t = %s: %s" % (tag, mp.nstr(t, 20), mp.nstr(v, 5)))

    def state(self, t):
        i = bisect_right(self.seg_t, t) - 1
        return self.seg_f[max(i, 0)](mpf(t))

    def header(self):
        cols = ["t"]
        for n in self.names:
            cols += [n + ".x", n + ".v"]
        return ",".join(cols)


def fmt(x):
    """25 significant digits."""
    x = mpf(x)
    if x == 0:
        return "0"
    return mp.nstr(x, 25, min_fixed=-6, max_fixed=25)


def events_text(rec, shift=None):
    """Event CSV; shift, when given, is a fourth column input_shift per event."""
    lines = ["t,kind,contact" + (",input_shift" if shift is not None else "")]
    for i, (t, kind, contact) in enumerate(rec.events):
        extra = "," + fmt(shift[i]) if shift is not None else ""
        lines.append("%s,%s,%s%s" % (fmt(t), kind, contact, extra))
    return "\n".join(lines) + "\n"


def samples_text(rec, times):
    lines = [rec.header()]
    for t in times:
        lines.append(",".join([fmt(t)] + [fmt(v) for v in rec.state(t)]))
    return "\n".join(lines) + "\n"


def grid(t0, t1, dt):
    """t0, t0+dt, ..., t1 as exact decimal multiples."""
    t0, t1, dt = mpf(t0), mpf(t1), mpf(dt)
    n = int(mp.nint((t1 - t0) / dt))
    return [t0 + i * dt for i in range(n + 1)]


def compare(path, text):
    """Numerical comparison of freshly computed CSV text with a committed file."""
    if not os.path.exists(path):
        return ["missing " + path]
    with open(path) as f:
        old = f.read().splitlines()
    new = text.splitlines()
    errs = []
    if len(old) != len(new):
        errs.append("%s: %d rows, recomputed %d" % (path, len(old), len(new)))
    for ln, (a, b) in enumerate(zip(old, new), 1):
        fa, fb = a.split(","), b.split(",")
        if len(fa) != len(fb):
            errs.append("%s:%d: column count differs" % (path, ln))
            continue
        for x, y in zip(fa, fb):
            try:
                vx, vy = mpf(x), mpf(y)
            except (ValueError, TypeError):
                if x != y:
                    errs.append("%s:%d: '%s' != '%s'" % (path, ln, x, y))
                continue
            if abs(vx - vy) > CHECK_TOL * max(1, abs(vx)):
                errs.append("%s:%d: %s != %s" % (path, ln, x, y))
        if len(errs) > 20:
            break
    return errs


def expect(cond, what):
    """A self-check of a reference computation; failure aborts the script."""
    if not cond:
        raise AssertionError("self-check failed: " + what)


def close(a, b, tol):
    return abs(mpf(a) - mpf(b)) <= mpf(tol) * max(1, abs(mpf(b)))


def main(outputs):
    """Command line of every case script.

    outputs: list of (name, events_text, samples_text) already computed.
    Without arguments writes data/<name>.events.csv and .samples.csv;
    with --check compares them with the committed files instead.
    """
    check = "--check" in sys.argv[1:]
    errs = []
    for name, ev, sa in outputs:
        for suffix, text in ((".events.csv", ev), (".samples.csv", sa)):
            path = os.path.join(DATA_DIR, name + suffix)
            if check:
                errs += compare(path, text)
            else:
                os.makedirs(DATA_DIR, exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
    if errs:
        for e in errs:
            print(e, file=sys.stderr)
        sys.exit(1)
    for name, ev, sa in outputs:
        n = ev.count("\n") - 1
        print("%s: %d events%s" % (name, n, " (checked)" if check else ""))
