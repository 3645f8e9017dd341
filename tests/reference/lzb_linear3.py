"""Exact reference for the energetic multiple-impact law: three balls, linear contacts.

Liu, Zhao and Brogliato's law (Proc. R. Soc. A 464 (2008) 3193-3211, part I,
and 465 (2009) 1-23, part II) during an impact: the configuration frozen,
the contacts' relative normal velocities follow Darboux-Keller's impulse
dynamics d(vn) = W dP; contact j's potential energy changes by
dE_j = -vn_j dP_j while it closes (vn_j < 0) and dE_j = -vn_j dP_j / e_j^2
while it opens (the energetic restitution); the impulses are shared by the
distributing law dP_j / dP_p = (k_j / k_p)^(1/(eta+1)) (E_j / E_p)^(eta/(eta+1)),
p the primary contact.  A contact whose energy is spent while it opens
has separated (no impulse until it closes again).

For linear contacts (eta = 1) the law is piecewise linear.  With
d_j = sqrt(2 E_j / k_j) and the parameter dtau = dP_p / (k_p d_p), the
distributing law reads dP_j = k_j d_j dtau, and the energy's change
k_j d_j dd_j = -vn_j k_j d_j dtau / c_j gives dd_j/dtau = -vn_j / c_j (c_j = 1
closing, e_j^2 opening, and d_j = 0 held while separated).  So in tau

    d(vn)/dtau = W K d,   d(d_j)/dtau = -vn_j / c_j,   dP/dtau = K d

is a linear system with constant coefficients between two events: a
contact turning from closing to opening (vn_j = 0, d_j > 0), from opening
to closing, an opening contact's energy running out (d_j = 0: it
separates) and a separated one closing again (vn_j = 0 from above).  This
script solves each phase in closed form, x(tau) = expm(A tau) x0, in
mpmath at 30 digits, finds each event as the root of the phase's closed
form (a sign change on a grid of 1/GRID of the contacts' time scale, then
bisection to 1e-28), and repeats the whole solution on a grid twice as
fine (the two agree to 1e-25 or the script stops: no event was missed).
This is a different computation from the kernel's (runtime/src/
multiimpact.c integrates the law by Dormand-Prince steps in a parameter of
its own) and from tests/reference/lzb_chain.py's (the compliant chain
integrated in time, which needs equal stiffnesses and one loading per
contact): here the contacts' stiffness ratio k2/k1 varies and a separated
contact may close again, which is where the law's stiffness ratios and
energetic restitution decide the outcome.

Cases: three balls of mass 1 in a row, touching, ball 0 strikes at 1 m/s
(vn = (-1, 0)); W = [[2, -1], [-1, 2]].  Written: data/lzb_linear3.csv, one
line per case
  name k1 k2 e1 e2 v0 v1 v2 events
(events: the number of phase changes, a record of how rich the case is).

usage: lzb_linear3.py [--check]
"""
import os
import sys

from mpmath import mp, mpf, matrix, expm

mp.dps = 30
GRID = 200
ROOT_TOL = mpf("1e-28")
CASES = [("k2_e1", 1, 2, 1, 1), ("k05_e1", 1, mpf(1) / 2, 1, 1),
         ("k4_e1", 1, 4, 1, 1), ("k2_e08", 1, 2, mpf("0.8"), mpf("0.8")),
         ("k05_e08", 1, mpf(1) / 2, mpf("0.8"), mpf("0.8")),
         ("k1_e05_e09", 1, 1, mpf("0.5"), mpf("0.9")),
         ("k3_e09_e06", 1, 3, mpf("0.9"), mpf("0.6"))]
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "lzb_linear3.csv")
W = [[mpf(2), mpf(-1)], [mpf(-1), mpf(2)]]


def system(k, e, mode):
    """The phase's matrix A on x = (vn_0, vn_1, d_0, d_1, P_0, P_1):
    mode[j] in 'closing', 'opening', 'separated'."""
    A = matrix(6, 6)
    for j in range(2):
        if mode[j] == "separated":
            continue
        for i in range(2):
            A[i, 2 + j] = W[i][j] * k[j]            # d(vn_i) = W_ij k_j d_j
        A[4 + j, 2 + j] = k[j]                      # dP_j = k_j d_j
        A[2 + j, j] = -1 if mode[j] == "closing" else -1 / e[j] ** 2
    return A


def fired(x, mode):
    """The contacts whose phase has ended at state x (an event function's sign)."""
    out = []
    for j in range(2):
        vn, d = x[j], x[2 + j]
        if mode[j] == "closing" and vn > 0:
            out.append(j)
        elif mode[j] == "opening" and (vn < 0 or d < 0):
            out.append(j)
        elif mode[j] == "separated" and vn < 0:
            out.append(j)
    return out


def solve(k, e, grid):
    """The law from vn = (-1, 0): (final x, number of phase changes)."""
    x = matrix([mpf(-1), mpf(0), 0, 0, 0, 0])
    mode = ["closing", "separated"]
    h = mpf(1) / grid                               # the time scale is 1/sqrt(k W) ~ 1
    events = 0
    while True:
        if all(m == "separated" for m in mode) and x[0] >= 0 and x[1] >= 0:
            return x, events
        A = system(k, e, mode)
        step = expm(A * h)
        y, n = x, 0
        while not fired(step * y, mode):
            y = step * y
            n += 1
            if n > 100 * grid:
                raise SystemExit("no event within 100 time scales: mode %s" % mode)
        lo, hi = n * h, (n + 1) * h                 # the first event lies in (lo, hi]
        while hi - lo > ROOT_TOL:
            mid = (lo + hi) / 2
            if fired(expm(A * mid) * x, mode):
                hi = mid
            else:
                lo = mid
        x = expm(A * hi) * x
        for j in fired(x, mode):
            vn, d = x[j], x[2 + j]
            if mode[j] == "opening" and d < 0:
                mode[j] = "separated"
                x[2 + j] = 0                        # its energy is spent
            elif mode[j] in ("closing", "opening"):
                mode[j] = "opening" if vn > 0 else "closing"
            else:
                mode[j] = "closing"
            events += 1
        if events > 200:
            raise SystemExit("more than 200 phase changes")


def velocities(x):
    """The balls' velocities from the impulses (ball 0 at 1 m/s before)."""
    P0, P1 = x[4], x[5]
    return [1 - P0, P0 - P1, P1]


def main():
    rows = []
    for name, k1, k2, e1, e2 in CASES:
        k, e = [mpf(k1), mpf(k2)], [mpf(e1), mpf(e2)]
        x, events = solve(k, e, GRID)
        x2, events2 = solve(k, e, 2 * GRID)
        v, v2 = velocities(x), velocities(x2)
        diff = max(abs(a - b) for a, b in zip(v, v2))
        if diff > mpf("1e-25") or events != events2:
            raise SystemExit("%s: the two grids disagree (%s, %d and %d events)"
                             % (name, mp.nstr(diff, 3), events, events2))
        momentum = sum(v) - 1
        ke = sum(a * a for a in v) / 2
        if abs(momentum) > mpf("1e-25") or (e1 == 1 and e2 == 1 and abs(ke - mpf(1) / 2) > mpf("1e-25")):
            raise SystemExit("%s: momentum %s or energy %s not kept" % (name, momentum, ke))
        print("%-12s k2/k1 %-5s e %s %s: v = %s  (%d events)"
              % (name, mp.nstr(k[1] / k[0], 3), mp.nstr(e[0], 2), mp.nstr(e[1], 2),
                 ", ".join(mp.nstr(a, 20) for a in v), events))
        rows.append("%s %s %s %s %s %s %d" % (name, mp.nstr(k[0], 20), mp.nstr(k[1], 20),
                                               mp.nstr(e[0], 20), mp.nstr(e[1], 20),
                                               " ".join(mp.nstr(a, 22) for a in v), events))
    text = "\n".join(rows) + "\n"
    if "--check" in sys.argv:
        with open(DATA) as f:
            old = f.read().split()
        new = text.split()
        bad = [(a, b) for a, b in zip(old, new) if a != b and not _close(a, b)]
        if len(old) != len(new) or bad:
            print("data/lzb_linear3.csv differs from the recomputed reference: %s" % bad[:4])
            return 1
        print("data/lzb_linear3.csv matches")
        return 0
    with open(DATA, "w") as f:
        f.write(text)
    return 0


def _close(a, b):
    """Two written numbers equal to 1e-20 (names and counts must match exactly)."""
    try:
        return abs(mpf(a) - mpf(b)) <= mpf("1e-20")
    except ValueError:
        return False


if __name__ == "__main__":
    sys.exit(main())
