"""Independent reference of the tippe top (Leine 2003, ch. 5; PyNonsmooth's
scenario 1): m = 6 g, I1 = I2 = 8e-7, I3 = 7e-7 kg m^2, g = 9.81 m/s^2,
a1 = 3 mm, a2 = 16 mm (centre of mass S to the centres of the spherical body
C1 = S + a1 e3 and of the stem's sphere C2 = S + a2 e3), r1 = 15 mm,
r2 = 5 mm, mu = 0.3, e_N = e_F = 0, drilling radius R = 0.5 mm (effective
Rb = 3 pi R / 16), from z0 = 12.015 mm, theta0 = 0.1 rad (a rotation about
the floor's x axis), spin 180 rad/s about e3, at rest otherwise.

The collection's z0 is rounded: the spherical body touches the floor at
z = r1 - a1 cos(theta0) = 12.0149875... mm, so the top starts 12.5 nm in the
air.  A symmetric body spinning about its symmetry axis is a steady
rotation (omega stays along e3, e3 fixed in space), so the flight is the free
fall of S with p(t) = p0 (x) (cos(w t/2), 0, 0, sin(w t/2)) in closed form; it
lands at t = sqrt(2 g_N0 / g) with a normal velocity of -sqrt(2 g g_N0)
and a slip of r1 w sin(theta0) = 0.27 m/s.  The landing is a frictional
impact with Glocker's law (Newton e_N = 0 on the normal, Coulomb on the
tangential impulse against the post-impact slip: P_F = -mu P_N xi/|xi|,
xi = gamma_F+ + e_F gamma_F-), solved by a fixed point on the slip
direction.  Then the spherical body slides on the floor (contact held) to
the stem's first contact, the first zero of g_N2 = z + a2 e3_z - r2.

Equations (Newton-Euler, written here by hand, nothing taken from nsm):
state r, v (world), unit quaternion p (body to world, scalar first), omega
(body frame), and the friction work W:

  r' = v,   m v' = lam_N k + F_T - m g k,
  p' = 1/2 p (x) (0, omega),
  I omega' = tau - omega x I omega,   tau = rho x R^T F + Rb lam_F3 k_b,
  rho = a1 e3 - r1 k_b (S to the contact point, body frame), k_b = R^T k,
  gamma_F = (v + R (omega x rho))_{x,y}, then Rb omega.k_b (Leine and
  Glocker's spatial Coulomb-Contensou law: one isotropic cone over the
  slip and the drilling, Eur. J. Mech. A 22 (2003) 193),
  lam_F = -mu lam_N gamma_F / |gamma_F|,   F_T = (lam_F1, lam_F2, 0),
  W' = lam_F . gamma_F = -mu lam_N |gamma_F|,

and lam_N from the contact held: g_N1'' = 0 is affine in lam_N (the friction
direction does not depend on it), lam_N = -A/B.

Integration: a Taylor series method of our own (Jorba and Zou, Exp. Math.
14 (2005) 99): the right-hand side is recorded once as a tape of +, -, *,
/, sqrt on the state, and every step computes the series of every tape node
order by order by the usual recurrences, in fixed-point integer arithmetic
(P bits after the point) on variables made dimensionless with m, r1 and
1/180 s so that everything is of order one.  The step is chosen so that the
last two coefficients are below the working precision.  The stem's contact
is the root of the series of g_N2 on the step, by bisection on the
polynomial to the last bit.  lam_N > 0 and |gamma_F| > 0 are checked on every
step at 32 points (a lift-off or a stick would stop the script).

Checks: two precisions and orders (P = 124 bits, order 34 against P = 96,
order 26); without friction energy, L_z and the horizontal momentum are
constant; without drilling Jellett's integral L . (a1 e3 - r1 k) is constant
and the energy balance T + V - W closes.  Usage:

  tippe_top.py            the full reference (drilling on and off), printed
  tippe_top.py --selftest the quick checks (short runs), for ctest
  tippe_top.py --landing  the landing's impact alone, in SI
  tippe_top.py --contact-start T
                          the sliding phase started on the spherical body
                          (z = r1 - a1 cos(theta0), no normal velocity) to
                          T seconds: theta, Jellett's integral, the work
"""
import sys
import time

from mpmath import mp, mpf

mp.dps = 50

# ---------------------------------------------------------------- parameters (SI)

M_SI = mpf("6e-3")
I1_SI, I3_SI = mpf("8e-7"), mpf("7e-7")
G_SI = mpf("9.81")
A1_SI, A2_SI = mpf("3e-3"), mpf("16e-3")
R1_SI, R2_SI = mpf("15e-3"), mpf("5e-3")
MU = mpf("0.3")
RDRILL_SI = mpf("5e-4")
Z0_SI = mpf("12.015e-3")
TH0 = mpf("0.1")
SPIN_SI = mpf(180)

NO_DRILL_END = mpf("0.035")

# units: mass m, length r1, time 1/180 s
T0 = 1 / SPIN_SI


def dimensionless(drilling=True, mu=MU):
    """The parameters in units of m, r1 and 1/180 s (all of order one)."""
    return dict(
        I1=I1_SI / (M_SI * R1_SI ** 2), I3=I3_SI / (M_SI * R1_SI ** 2),
        g=G_SI * T0 ** 2 / R1_SI, a1=A1_SI / R1_SI, a2=A2_SI / R1_SI,
        r1=mpf(1), r2=R2_SI / R1_SI, mu=mpf(mu),
        rb=(3 * mp.pi * RDRILL_SI / 16 / R1_SI) if drilling else mpf(0))


# ---------------------------------------------------------------- the model

def rotation(p):
    """Body-to-world rotation of a (not necessarily unit) quaternion, scaled
    by 1/|p|^2 so that a drift of |p| does not deform the body."""
    p0, p1, p2, p3 = p
    n = p0 * p0 + p1 * p1 + p2 * p2 + p3 * p3
    return [[(p0 * p0 + p1 * p1 - p2 * p2 - p3 * p3) / n, 2 * (p1 * p2 - p0 * p3) / n, 2 * (p1 * p3 + p0 * p2) / n],
            [2 * (p1 * p2 + p0 * p3) / n, (p0 * p0 - p1 * p1 + p2 * p2 - p3 * p3) / n, 2 * (p2 * p3 - p0 * p1) / n],
            [2 * (p1 * p3 - p0 * p2) / n, 2 * (p2 * p3 + p0 * p1) / n, (p0 * p0 - p1 * p1 - p2 * p2 + p3 * p3) / n]]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def matvec(R, x):
    return [dot(R[i], x) for i in range(3)]


def matTvec(R, x):
    return [R[0][i] * x[0] + R[1][i] * x[1] + R[2][i] * x[2] for i in range(3)]


def contact_terms(y, par, sqrt):
    """Kinematics of the spherical body's contact: R, k_b, rho, the slip
    3-vector gamma_F (x, y slip, Rb times the drilling rate) and |gamma_F|."""
    v, p, w = y[3:6], y[6:10], y[10:13]
    R = rotation(p)
    kb = [R[2][0], R[2][1], R[2][2]]
    rho = [-par["r1"] * kb[0], -par["r1"] * kb[1], par["a1"] - par["r1"] * kb[2]]
    vp = matvec(R, cross(w, rho))
    gam = [v[0] + vp[0], v[1] + vp[1], par["rb"] * dot(w, kb)]
    norm = sqrt(gam[0] * gam[0] + gam[1] * gam[1] + gam[2] * gam[2])
    return R, kb, rho, gam, norm


def accelerations(y, par, lam_n, sqrt, contact=True):
    """(v', omega', lam_N, |gamma_F|, gamma_F) with the spherical body's
    contact held (lam_N solved from g_N1'' = 0) or in flight (lam_N = 0)."""
    w = y[10:13]
    I = [par["I1"], par["I1"], par["I3"]]
    Iw = [I[0] * w[0], I[1] * w[1], I[2] * w[2]]
    gyro = cross(w, Iw)
    alpha0 = [-gyro[i] / I[i] for i in range(3)]            # omega' without contact
    if not contact:
        return [0, 0, -par["g"]], alpha0, 0, None, None
    R, kb, rho, gam, norm = contact_terms(y, par, sqrt)
    mu = par["mu"]
    d = [gam[0] / norm, gam[1] / norm, gam[2] / norm]
    f1 = [-mu * d[0], -mu * d[1], 1]                        # world force per unit lam_N
    tau1 = cross(rho, matTvec(R, f1))
    tau1 = [tau1[i] - mu * par["rb"] * d[2] * kb[i] for i in range(3)]
    alpha1 = [tau1[i] / I[i] for i in range(3)]             # omega' per unit lam_N
    # g_N1 = z + a1 e3_z - r1, e3_z = k_b[2]; k_b' = -omega x k_b
    wk = cross(w, kb)
    wwk = cross(w, wk)
    A = -par["g"] - par["a1"] * (cross(alpha0, kb)[2] - wwk[2])
    B = 1 - par["a1"] * cross(alpha1, kb)[2]
    lam = -A / B if lam_n is None else lam_n
    vdot = [lam * f1[0], lam * f1[1], lam - par["g"]]
    wdot = [alpha0[i] + lam * alpha1[i] for i in range(3)]
    return vdot, wdot, lam, norm, gam


def rhs(y, par, sqrt, contact=True):
    """y' for y = (r, v, p, omega, W) and the outputs (g_N2, lam_N, |gamma_F|)."""
    v, p, w = y[3:6], y[6:10], y[10:13]
    vdot, wdot, lam, norm, gam = accelerations(y, par, None, sqrt, contact)
    p0, p1, p2, p3 = p
    pdot = [-(p1 * w[0] + p2 * w[1] + p3 * w[2]) / 2,
            (p0 * w[0] + p2 * w[2] - p3 * w[1]) / 2,
            (p0 * w[1] + p3 * w[0] - p1 * w[2]) / 2,
            (p0 * w[2] + p1 * w[1] - p2 * w[0]) / 2]
    work = -par["mu"] * lam * norm if contact else 0
    R = rotation(p)
    gap2 = y[2] + par["a2"] * R[2][2] - par["r2"]
    return list(v) + vdot + pdot + wdot + [work], [gap2, lam, norm if contact else 1]


def invariants(y, par):
    """Energies, momenta and Jellett's integral of a state (mpf)."""
    r, v, p, w = y[0:3], y[3:6], y[6:10], y[10:13]
    R = rotation(p)
    I = [par["I1"], par["I1"], par["I3"]]
    Lb = [I[i] * w[i] for i in range(3)]
    Lw = matvec(R, Lb)
    e3 = [R[0][2], R[1][2], R[2][2]]
    T = (dot(v, v) + dot(w, Lb)) / 2
    V = par["g"] * r[2]
    jell = dot(Lw, [par["a1"] * e3[0], par["a1"] * e3[1], par["a1"] * e3[2] - par["r1"]])
    return dict(T=T, V=V, E=T + V, W=y[13], Lz=Lw[2], px=v[0], py=v[1], jellett=jell,
                theta=mp.acos(e3[2]), gap1=r[2] + par["a1"] * e3[2] - par["r1"],
                gap2=r[2] + par["a2"] * e3[2] - par["r2"],
                gap1dot=v[2] - par["a1"] * cross(w, [R[2][0], R[2][1], R[2][2]])[2],
                gap2dot=v[2] - par["a2"] * cross(w, [R[2][0], R[2][1], R[2][2]])[2],
                pnorm=mp.sqrt(dot(p[1:], p[1:]) + p[0] ** 2))


# ---------------------------------------------------------------- Taylor tape

class Node:
    """A value recorded on the tape: arithmetic builds new tape entries."""

    def __init__(self, tape, idx):
        self.tape, self.idx = tape, idx

    def _bin(self, op, other, rev=False):
        t = self.tape
        if isinstance(other, Node):
            a, b = (other, self) if rev else (self, other)
            return t.add(op, a.idx, b.idx)
        c = t.fixed(other)
        if op == "mul":
            return t.add("mulc", self.idx, c)
        if op == "add":
            return t.add("addc", self.idx, c)
        if op == "sub":
            return t.add("rsubc" if rev else "addc", self.idx, c if rev else -c)
        if op == "div" and not rev:
            return t.add("mulc", self.idx, t.fixed(1 / mpf(other)))
        return t.add(op, *( (t.const(other), self.idx) if rev else (self.idx, t.const(other)) ))

    def __add__(self, o): return self._bin("add", o)
    def __radd__(self, o): return self._bin("add", o, True)
    def __sub__(self, o): return self._bin("sub", o)
    def __rsub__(self, o): return self._bin("sub", o, True)
    def __mul__(self, o): return self._bin("mul", o)
    def __rmul__(self, o): return self._bin("mul", o, True)
    def __truediv__(self, o): return self._bin("div", o)
    def __rtruediv__(self, o): return self._bin("div", o, True)
    def __neg__(self): return self.tape.add("mulc", self.idx, -self.tape.one)


class Tape:
    """The right-hand side as a list of operations on fixed-point series."""

    def __init__(self, nstate, prec):
        self.P, self.one = prec, 1 << prec
        self.ops = [("var", i, None) for i in range(nstate)]
        self.nstate = nstate

    def fixed(self, x):
        return int(mp.nint(mpf(x) * self.one))

    def add(self, op, a, b):
        self.ops.append((op, a, b))
        return Node(self, len(self.ops) - 1)

    def const(self, x):
        return self.add("const", self.fixed(x), None).idx

    def sqrt(self, x):
        return self.add("sqrt", x.idx, None)

    def record(self, par, contact):
        y = [Node(self, i) for i in range(self.nstate)]
        d, out = rhs(y, par, self.sqrt, contact)
        self.deriv = [x.idx if isinstance(x, Node) else self.const(x) for x in d]
        self.out = [x.idx if isinstance(x, Node) else self.const(x) for x in out]

    def series(self, y0, h, order):
        """Coefficients of every node in s = (t - t0)/h, up to 'order'."""
        P, ops = self.P, self.ops
        c = [[] for _ in ops]
        for i in range(self.nstate):
            c[i].append(y0[i])
        for k in range(order + 1):
            for n in range(self.nstate, len(ops)):
                op, a, b = ops[n]
                cn = c[n]
                if op == "add":
                    cn.append(c[a][k] + c[b][k])
                elif op == "sub":
                    cn.append(c[a][k] - c[b][k])
                elif op == "addc":
                    cn.append(c[a][k] + b if k == 0 else c[a][k])
                elif op == "rsubc":
                    cn.append(b - c[a][k] if k == 0 else -c[a][k])
                elif op == "mulc":
                    cn.append((c[a][k] * b) >> P)
                elif op == "const":
                    cn.append(a if k == 0 else 0)
                elif op == "mul":
                    ca, cb = c[a], c[b]
                    cn.append(sum(ca[j] * cb[k - j] for j in range(k + 1)) >> P)
                elif op == "div":
                    ca, cb = c[a], c[b]
                    s = (ca[k] << P) - sum(cb[j] * cn[k - j] for j in range(1, k + 1))
                    cn.append(s // cb[0])
                elif op == "sqrt":
                    ca = c[a]
                    if k == 0:
                        cn.append(_isqrt(ca[0] << P))
                    else:
                        s = (ca[k] << P) - sum(cn[j] * cn[k - j] for j in range(1, k))
                        cn.append(s // (2 * cn[0]))
                else:
                    raise ValueError(op)
            if k < order:
                for i in range(self.nstate):
                    c[i].append(((c[self.deriv[i]][k] * h) >> P) // (k + 1))
        return c


def _isqrt(x):
    if x <= 0:
        raise ArithmeticError("square root of a non-positive series")
    from math import isqrt
    return isqrt(x)


def horner(coef, s, P):
    """Value of a fixed-point polynomial at the fixed-point s in [0, 1]."""
    acc = 0
    for a in reversed(coef):
        acc = ((acc * s) >> P) + a
    return acc


# ---------------------------------------------------------------- integration

class Run:
    """The sliding phase from a landed state to the stem's first contact."""

    def __init__(self, par, y0, t0, t_end, prec=124, order=34, samples=32, log=None):
        self.par, self.prec, self.order = par, prec, order
        self.tape = Tape(14, prec)
        self.tape.record(par, True)
        one = self.tape.one
        y = [self.tape.fixed(v) for v in y0]
        t = mpf(t0)
        tol = 1 << 12                     # 12 bits of margin on an O(1) state
        h = one // 8
        self.steps, self.min_lam, self.min_slip = 0, None, None
        self.jellett = []
        self.stem = None
        self.slip_zero = None
        slip_floor = one >> 50               # |gamma_F| below 1e-15: the slip ends
        while t_end - t > mpf(2) ** (-prec // 2):
            h = min(h, int(mp.nint((t_end - t) * one)))      # land on t_end
            c = self.tape.series(y, h, self.order)
            tail = max(abs(c[i][-1]) + abs(c[i][-2]) for i in range(14))
            if tail > tol:
                h = int(h * 0.7 * (tol / tail) ** (1.0 / self.order))
                continue
            self.steps += 1
            lamc, slipc, gapc = c[self.tape.out[1]], c[self.tape.out[2]], c[self.tape.out[0]]
            for j in range(samples + 1):
                s = one * j // samples
                lam, slip = horner(lamc, s, prec), horner(slipc, s, prec)
                if lam <= 0:
                    raise SystemExit("tippe_top: the spherical body lifts off at t ~ %s s" % mp.nstr(t * T0, 12))
                self.min_lam = lam if self.min_lam is None else min(self.min_lam, lam)
                self.min_slip = slip if self.min_slip is None else min(self.min_slip, slip)
            hm = mpf(h) / one
            end = horner(gapc, one, prec)
            if end <= 0:
                s = self._root(gapc)
                self.stem = (t + mpf(s) / one * hm, [horner(c[i], s, prec) for i in range(14)])
                y = self.stem[1]
                t = self.stem[0]
                break
            y = [horner(c[i], one, prec) for i in range(14)]
            t += hm
            if horner(slipc, one, prec) < slip_floor:
                # the slip vanishes (|gamma| falls linearly to zero): its
                # instant extrapolated from the series' slope, error O(|gamma|^2)
                slope = sum(k * slipc[k] for k in range(1, len(slipc)))
                self.slip_zero = t - mpf(horner(slipc, one, prec)) / slope * hm
                break
            if self.steps % 200 == 0:
                self.jellett.append(invariants(self.state(y), par)["jellett"])
                if log:
                    log("  t = %.4f s  theta = %.5f  steps %d" % (
                        float(t * T0), float(invariants(self.state(y), par)["theta"]), self.steps))
            h = self._next_step(c, h, tol)
        self.t, self.y = t, self.state(y)

    def _next_step(self, c, h, tol):
        """Jorba and Zou's step: the radius of convergence estimated from the
        coefficients of orders N/2..N above the rounding noise, times
        (tol)^(1/N) so that the last term is at the working precision."""
        one, N = self.tape.one, self.order
        noise = 1 << 24
        worst = 0.0
        for i in range(14):
            for k in range(N // 2, N + 1):
                a = abs(c[i][k])
                if a > noise:
                    worst = max(worst, (a / one) ** (1.0 / k))
        if worst == 0.0:
            return 2 * h
        rho = h / worst
        return min(2 * h, int(0.8 * rho * (tol / one) ** (1.0 / N)))

    def state(self, y):
        one = mpf(self.tape.one)
        return [mpf(v) / one for v in y]

    def _root(self, gapc):
        """The first zero of the gap polynomial on [0, 1], to the last bit."""
        P, one = self.prec, self.tape.one
        lo, hi = 0, one
        # the first sign change on a fine grid, then bisection
        n = 64
        prev = 0
        for j in range(1, n + 1):
            s = one * j // n
            if horner(gapc, s, P) <= 0:
                lo, hi = prev, s
                break
            prev = s
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if horner(gapc, mid, P) > 0:
                lo = mid
            else:
                hi = mid
        return hi


def stick_force(y, par):
    """The contact force (lam_N, F_x, F_y) that would keep the contact point
    at rest (g_N1'' = 0, gamma_T' = 0) from the state y with gamma_T = 0: a
    3 x 3 linear system whose columns are the responses to unit forces."""
    I = [par["I1"], par["I1"], par["I3"]]
    v, w = y[3:6], y[10:13]
    R = rotation(y[6:10])
    kb = [R[2][0], R[2][1], R[2][2]]
    rho = [-par["r1"] * kb[0], -par["r1"] * kb[1], par["a1"] - par["r1"] * kb[2]]
    gyro = cross(w, [I[i] * w[i] for i in range(3)])

    def residual(F):
        vdot = [F[0], F[1], F[2] - par["g"]]
        tau = cross(rho, matTvec(R, F))
        wdot = [(tau[i] - gyro[i]) / I[i] for i in range(3)]
        rhodot = [par["r1"] * x for x in cross(w, kb)]
        acc = matvec(R, [a + b + c for a, b, c in zip(cross(w, cross(w, rho)), cross(wdot, rho),
                                                     cross(w, rhodot))])
        # the contact point's acceleration: x, y are gamma_T', z is g_N1''
        return [vdot[i] + acc[i] for i in range(3)]

    r0 = residual([0, 0, 0])
    A = mp.matrix(3, 3)
    for j in range(3):
        e = [0, 0, 0]
        e[j] = 1
        rj = residual(e)
        for i in range(3):
            A[i, j] = rj[i] - r0[i]
    F = mp.lu_solve(A, mp.matrix([-x for x in r0]))
    return F[2], F[0], F[1]


# ---------------------------------------------------------------- flight and landing

def initial_state():
    """The collection's initial state, dimensionless (W = 0)."""
    c, s = mp.cos(TH0 / 2), mp.sin(TH0 / 2)
    return [mpf(0), mpf(0), Z0_SI / R1_SI, mpf(0), mpf(0), mpf(0), c, s, mpf(0), mpf(0),
            mpf(0), mpf(0), SPIN_SI * T0, mpf(0)]


def flight(y0, par):
    """Closed-form flight: steady spin about e3, free fall of S, to the
    spherical body's landing.  Returns (t_land, state before impact)."""
    g1 = y0[2] + par["a1"] * mp.cos(TH0) - par["r1"]
    if g1 < 0:
        raise SystemExit("tippe_top: the initial state penetrates the floor")
    t = mp.sqrt(2 * g1 / par["g"])
    w = y0[12]
    half = w * t / 2
    p0, p1, p2, p3 = y0[6:10]
    q = [mp.cos(half), 0, 0, mp.sin(half)]
    p = [p0 * q[0] - p3 * q[3], p1 * q[0] + p2 * q[3], p2 * q[0] - p1 * q[3], p3 * q[0] + p0 * q[3]]
    y = list(y0)
    y[2] = y0[2] - par["g"] * t ** 2 / 2
    y[5] = -par["g"] * t
    y[6:10] = p
    return t, y


def impact(y, par, e_n=0, e_f=0):
    """Glocker's frictional impact on the spherical body's contact: post-impact
    normal velocity -e_n times the pre-impact one, Coulomb on the tangential
    impulse against xi = gamma_F+ + e_f gamma_F-.  Fixed point on the
    direction of xi (the impulse is small against the slip)."""
    I = [par["I1"], par["I1"], par["I3"]]
    R, kb, rho, gam0, n0 = contact_terms(y, par, mp.sqrt)

    def post(pn, d):
        f = [-par["mu"] * pn * d[0], -par["mu"] * pn * d[1], pn]
        tau = cross(rho, matTvec(R, f))
        tau = [tau[i] - par["mu"] * pn * par["rb"] * d[2] * kb[i] for i in range(3)]
        z = list(y)
        for i in range(3):
            z[3 + i] = y[3 + i] + f[i]
            z[10 + i] = y[10 + i] + tau[i] / I[i]
        return z

    def gn_dot(z):
        return invariants(z, par)["gap1dot"]

    vn0 = gn_dot(y)
    d = [x / n0 for x in gam0]
    for _ in range(200):
        # the normal velocity is affine in pn for a fixed direction
        a, b = gn_dot(post(0, d)), gn_dot(post(1, d)) - gn_dot(post(0, d))
        pn = -(a + e_n * vn0) / b
        z = post(pn, d)
        xi = [g1 + e_f * g0 for g1, g0 in zip(contact_terms(z, par, mp.sqrt)[3], gam0)]
        nx = mp.sqrt(dot(xi, xi))
        dn = [x / nx for x in xi]
        if max(abs(dn[i] - d[i]) for i in range(3)) < mpf(10) ** (-mp.dps + 5):
            break
        d = dn
    else:
        raise SystemExit("tippe_top: the impact's friction direction does not converge")
    return z, pn, [-par["mu"] * pn * x for x in d], vn0


# ---------------------------------------------------------------- reports

def si_state(y):
    """The state in SI units: r [m], v [m/s], p, omega [rad/s]."""
    L, V, W = R1_SI, R1_SI / T0, 1 / T0
    return [x * L for x in y[0:3]] + [x * V for x in y[3:6]] + y[6:10] + [x * W for x in y[10:13]]


def energy_si(x):
    return x * M_SI * R1_SI ** 2 / T0 ** 2


def reference(drilling, prec=124, order=34, t_end=None, log=None, mu=MU, in_contact=False):
    """Flight, landing and sliding to the stem's contact (or t_end, seconds).
    in_contact: start on the spherical body instead, at z = r1 - a1 cos(theta0)
    with no normal velocity (no flight, no impact: t_land = 0)."""
    par = dimensionless(drilling, mu)
    y0 = initial_state()
    if in_contact:
        y0[2] = par["r1"] - par["a1"] * mp.cos(TH0)
        tl, yb, ya, pn, pf, vn = mpf(0), y0, y0, mpf(0), mpf(0), mpf(0)
    else:
        tl, yb = flight(y0, par)
        ya, pn, pf, vn = impact(yb, par)
    inv_b, inv_a = invariants(yb, par), invariants(ya, par)
    t_end = mpf(10 ** 6) if t_end is None else mpf(t_end) / T0
    run = Run(par, ya, tl, t_end, prec, order, log=log)
    return dict(par=par, t_land=tl, y_before=yb, y_after=ya, pn=pn, pf=pf, vn=vn,
                inv_b=inv_b, inv_a=inv_a, run=run, inv_end=invariants(run.y, par))


def expect(cond, what):
    if not cond:
        raise SystemExit("tippe_top: self-check failed: " + what)
    print("  ok  " + what)


def rel(a, b):
    return abs(a - b) / max(abs(a), abs(b))


def selftest():
    """Quick checks (about a minute): flight in closed form against the
    series, the impact law, conservation without friction, Jellett without
    drilling, the energy balance, two precisions."""
    t_short = mpf("0.05")
    # 1. no friction: energy, L_z, horizontal momentum, Jellett conserved
    r = reference(False, 110, 30, t_short, mu=0)
    a, e = r["inv_a"], r["inv_end"]
    for k in ("E", "Lz", "px", "py", "jellett"):
        expect(abs(e[k] - a[k]) <= mpf("1e-26") * max(abs(a["E"]), abs(a[k]), mpf(1)),
               "mu = 0: %s constant over %s s (%s)" % (k, t_short, mp.nstr(e[k] - a[k], 3)))
    # 2. friction without drilling: Jellett constant, energy balance closes
    r = reference(False, 110, 30, mpf("0.03"))
    a, e = r["inv_a"], r["inv_end"]
    expect(rel(e["jellett"], a["jellett"]) < mpf("1e-26"),
           "no drilling: Jellett's integral constant (%s)" % mp.nstr(rel(e["jellett"], a["jellett"]), 3))
    bal = (e["E"] - e["W"]) - (a["E"] - a["W"])
    expect(abs(bal) < mpf("1e-26") * a["E"], "no drilling: T + V - W constant (%s)" % mp.nstr(bal, 3))
    expect(e["W"] < 0, "friction dissipates")
    expect(abs(e["gap1"]) < mpf("1e-28") and abs(e["gap1dot"]) < mpf("1e-28"), "contact held")
    # 3. with drilling Jellett drifts, the energy balance still closes; two precisions agree
    r = reference(True, 110, 30, t_short)
    r2 = reference(True, 80, 22, t_short)
    a, e = r["inv_a"], r["inv_end"]
    bal = (e["E"] - e["W"]) - (a["E"] - a["W"])
    expect(abs(bal) < mpf("1e-26") * a["E"], "drilling: T + V - W constant (%s)" % mp.nstr(bal, 3))
    expect(rel(e["jellett"], a["jellett"]) > mpf("1e-6"), "drilling: Jellett's integral changes")
    diff = max(abs(u - v) for u, v in zip(r["run"].y, r2["run"].y))
    expect(diff < mpf("1e-20"), "P = 110, order 30 against P = 80, order 22 (%s)" % mp.nstr(diff, 3))
    # 4. the flight: the landing gap is zero, the impact stops the normal velocity
    par = r["par"]
    expect(abs(r["inv_b"]["gap1"]) < mpf("1e-40"), "landing: gap 0 at t_land")
    expect(abs(r["inv_a"]["gap1dot"]) < mpf("1e-40") and r["pn"] > 0, "impact: e_N = 0, P_N > 0")
    dT = r["inv_a"]["T"] - r["inv_b"]["T"]
    ga, gb = contact_terms(r["y_after"], par, mp.sqrt)[3], contact_terms(r["y_before"], par, mp.sqrt)[3]
    work = r["pn"] * (r["inv_a"]["gap1dot"] + r["vn"]) / 2 + dot(r["pf"], [x + y for x, y in zip(ga, gb)]) / 2
    expect(abs(dT - work) < mpf("1e-40"), "impact: kinetic energy change = impulse . mean velocity")
    # 5. the series against the closed-form flight (contact off)
    tape = Tape(14, 110)
    tape.record(par, False)
    y0 = initial_state()
    c = tape.series([tape.fixed(v) for v in y0], tape.fixed(r["t_land"]), 30)
    yl = [mpf(horner(c[i], tape.one, 110)) / tape.one for i in range(14)]
    diff = max(abs(u - v) for u, v in zip(yl, r["y_before"]))
    expect(diff < mpf("1e-28"), "flight: series against the closed form (%s)" % mp.nstr(diff, 3))


def report(r, label):
    run, par = r["run"], r["par"]
    a, e, b = r["inv_a"], r["inv_end"], r["inv_b"]
    print("%s (P = %d bits, order %d, %d steps)" % (label, run.prec, run.order, run.steps))
    print("  landing t = %s s, v_N- = %s m/s, P_N = %s N s" % (
        mp.nstr(r["t_land"] * T0, 25), mp.nstr(r["vn"] * R1_SI / T0, 20),
        mp.nstr(r["pn"] * M_SI * R1_SI / T0, 20)))
    print("  impact energy loss %s J" % mp.nstr(energy_si(b["E"] - a["E"]), 20))
    if run.slip_zero is not None:
        lam, fx, fy = stick_force(run.y, par)
        print("  the slip vanishes at t = %s s (theta = %s rad): sticking needs |F_T|/lam_N = %s"
              " (mu = %s), so the sphere %s; the reference stops there (no rolling mode here)" % (
                  mp.nstr(run.slip_zero * T0, 20), mp.nstr(e["theta"], 12),
                  mp.nstr(mp.sqrt(fx ** 2 + fy ** 2) / lam, 8), mp.nstr(par["mu"], 3),
                  "rolls" if mp.sqrt(fx ** 2 + fy ** 2) <= par["mu"] * lam else "slides on"))
    elif run.stem is None:
        lam, fx, fy = stick_force(run.y, par)
        slip = mp.sqrt(sum(x ** 2 for x in contact_terms(run.y, par, mp.sqrt)[3]))
        print("  no stem contact before t = %s s; there |gamma_F| = %s m/s, and holding the contact"
              " point would need |F_T|/lam_N = %s (mu = %s)" % (
                  mp.nstr(run.t * T0, 12), mp.nstr(slip * R1_SI / T0, 6),
                  mp.nstr(mp.sqrt(fx ** 2 + fy ** 2) / lam, 8), mp.nstr(par["mu"], 3)))
    else:
        print("  stem's first contact t = %s s, the stem's normal velocity there %s m/s"
              " (an impact: the reference stops here)" % (
                  mp.nstr(run.t * T0, 25), mp.nstr(e["gap2dot"] * R1_SI / T0, 15)))
    print("  theta = %s rad" % mp.nstr(e["theta"], 25))
    names = ["x", "y", "z", "vx", "vy", "vz", "p0", "p1", "p2", "p3", "w1", "w2", "w3"]
    for n, v in zip(names, si_state(run.y)):
        print("    %-3s %s" % (n, mp.nstr(v, 25)))
    print("  E before impact %s J, after %s J, at the end %s J" % tuple(
        mp.nstr(energy_si(x), 20) for x in (b["E"], a["E"], e["E"])))
    print("  friction work %s J; balance (T + V - W) drift %s J" % (
        mp.nstr(energy_si(e["W"]), 20), mp.nstr(energy_si((e["E"] - e["W"]) - (a["E"] - a["W"])), 5)))
    print("  Jellett %s -> %s kg m^2/s (relative change %s)" % (
        mp.nstr(a["jellett"] * M_SI * R1_SI ** 2 / T0, 20), mp.nstr(e["jellett"] * M_SI * R1_SI ** 2 / T0, 20),
        mp.nstr(rel(e["jellett"], a["jellett"]), 5)))
    print("  min lam_N %s N, min |gamma_F| %s m/s; |p| - 1 = %s; gap1 %s" % (
        mp.nstr(mpf(run.min_lam) / run.tape.one * M_SI * R1_SI / T0 ** 2, 8),
        mp.nstr(mpf(run.min_slip) / run.tape.one * R1_SI / T0, 8), mp.nstr(e["pnorm"] - 1, 3),
        mp.nstr(e["gap1"], 3)))


def landing():
    """The landing alone (drilling on, the issue's parameters), in SI to 25
    digits: the instant, the state just after the impact, P_N and the
    kinetic energy lost; the runtime's frictional impact is checked against
    these numbers (tests/unit/test_space_impact.c)."""
    par = dimensionless(True)
    tl, yb = flight(initial_state(), par)
    ya, pn, pf, vn = impact(yb, par)
    print("landing t = %s s" % mp.nstr(tl * T0, 25))
    print("v_N- = %s m/s, P_N = %s N s" % (mp.nstr(vn * R1_SI / T0, 25),
                                            mp.nstr(pn * M_SI * R1_SI / T0, 25)))
    names = ["x", "y", "z", "vx", "vy", "vz", "p0", "p1", "p2", "p3", "w1", "w2", "w3"]
    for n, b, a in zip(names, si_state(yb), si_state(ya)):
        print("  %-3s before %s after %s" % (n, mp.nstr(b, 25), mp.nstr(a, 25)))
    lost = invariants(yb, par)["E"] - invariants(ya, par)["E"]
    print("kinetic energy lost %s J" % mp.nstr(energy_si(lost), 25))


def contact_start(t_end):
    """The sliding phase started in contact (reference(in_contact=True)) to
    t_end seconds, with and without drilling: theta, Jellett's integral and
    the energies at t_end (SI), for a simulator started in the same state."""
    for drilling in (True, False):
        r = reference(drilling, 96, 26, t_end=t_end, in_contact=True)
        inv, inv0 = r["inv_end"], r["inv_a"]
        e_si = M_SI * R1_SI ** 2 / T0 ** 2
        print("drilling %s, started in contact, to t = %s s:" % ("on" if drilling else "off", t_end))
        print("  theta = %s rad" % mp.nstr(inv["theta"], 20))
        print("  Jellett's integral relative change %s" % mp.nstr(
            (inv["jellett"] - inv0["jellett"]) / inv0["jellett"], 5))
        print("  friction work W = %s J, balance %s J" % (mp.nstr(inv["W"] * e_si, 20), mp.nstr(
            (inv["E"] - inv["W"] - inv0["E"]) * e_si, 3)))


def main():
    if "--selftest" in sys.argv[1:]:
        selftest()
        return
    if "--landing" in sys.argv[1:]:
        landing()
        return
    if "--contact-start" in sys.argv[1:]:
        contact_start(sys.argv[sys.argv.index("--contact-start") + 1])
        return
    log = (lambda s: print(s, flush=True)) if "-v" in sys.argv[1:] else None
    runs = {}
    for drilling in (True, False):
        for prec, order in ((124, 34), (96, 26)):
            t = time.time()
            # without drilling the slip collapses towards zero near 0.036 s
            # (the steps shrink with it): that reference stops at 0.035 s
            r = reference(drilling, prec, order, t_end=None if drilling else NO_DRILL_END, log=log)
            report(r, "drilling %s" % ("on" if drilling else "off"))
            print("  (%.0f s of CPU)" % (time.time() - t), flush=True)
            runs[(drilling, prec)] = r
        r1, r2 = runs[(drilling, 124)]["run"], runs[(drilling, 96)]["run"]
        if r1.stem is not None:
            print("  stem time, 124 bits against 96: %s s" % mp.nstr(abs(r1.t - r2.t) * T0, 3), flush=True)
        if r1.slip_zero is not None:
            print("  end of slip, 124 bits against 96: %s s" % mp.nstr(
                abs(r1.slip_zero - r2.slip_zero) * T0, 3), flush=True)


if __name__ == "__main__":
    main()
