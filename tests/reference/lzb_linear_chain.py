"""Exact reference for the energetic multiple-impact law: chains of linear contacts.

The law of Liu, Zhao and Brogliato (Proc. R. Soc. A 464 (2008) 3193-3211 and
465 (2009) 1-23) on a chain of n unit balls in a row, touching, ball 0
striking the others at 1 m/s, linear contacts (eta = 1) of stiffnesses k_j
and one energetic restitution e.  As in tests/reference/lzb_linear3.py (the
three-ball case, whose derivation this follows): with d_j = sqrt(2 E_j / k_j)
and dtau = dP_p / (k_p d_p) the law is, between two of its events,

    d(vn)/dtau = W K d,   d(d_j)/dtau = -vn_j / c_j,   dP/dtau = K d,

c_j = 1 while contact j closes, e^2 while it opens, and d_j = 0 held (no
impulse) while it is separated: a linear system with constant coefficients.
The events: a contact turning (vn_j = 0), an opening contact's energy
running out (d_j = 0: it separates) and a separated one closing again.

Here each phase is solved by its Taylor series in tau, exact for a linear
system: x(tau0 + t) = sum_m A^m x(tau0) t^m / m!, summed to 1e-40, in mpmath
at 40 digits, over steps of H_STEP; the events are found on the series (a
sign change among 8 points per step, then bisection to 1e-30).  The whole
solution is repeated with steps of half the size (the two agree to 1e-25
or the script stops: no event was missed).  The chains are long enough
(12 and 16 balls) that the kernel (runtime/src/multiimpact.c) re-steps
bands of contacts around the law's kinks inside a global step: this is the
reference for that path.  Written: data/lzb_linear_chain.csv, one line
per case: name n e k_0 .. k_{n-2} v_0 .. v_{n-1} events.

usage: lzb_linear_chain.py [--check]
"""
import os
import sys

from mpmath import mp, mpf

mp.dps = 40
H_STEP = mpf(1) / 8
ROOT_TOL = mpf("1e-30")
SERIES_TOL = mpf("1e-40")
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "lzb_linear_chain.csv")


def stiffness(n, pattern):
    """The contacts' stiffnesses: pattern repeated along the chain."""
    return [mpf(pattern[j % len(pattern)]) for j in range(n - 1)]


CASES = [("n12_e095", 12, mpf("0.95"), stiffness(12, [1, "1.5", 2])),
         ("n12_e08", 12, mpf("0.8"), stiffness(12, [2, 1, "0.5"])),
         ("n16_e095", 16, mpf("0.95"), stiffness(16, [1]))]


def rates(x, k, e, mode):
    """dx/dtau for x = vn (nc), d (nc), P (nc) in the current modes."""
    nc = len(k)
    f = [k[j] * x[nc + j] if mode[j] != "separated" else mpf(0) for j in range(nc)]
    out = [mpf(0)] * (3 * nc)
    for i in range(nc):
        acc = 2 * f[i]                              # W: 2 on the diagonal, -1 beside it
        if i > 0:
            acc -= f[i - 1]
        if i + 1 < nc:
            acc -= f[i + 1]
        out[i] = acc
        if mode[i] == "closing":
            out[nc + i] = -x[i]
        elif mode[i] == "opening":
            out[nc + i] = -x[i] / e ** 2
        out[2 * nc + i] = f[i]
    return out


def series(x, k, e, mode, h):
    """The Taylor coefficients c_m of x(tau0 + t) = sum c_m t^m, to 1e-40 at t = h."""
    cs = [x]
    while True:
        c = [a / len(cs) for a in rates(cs[-1], k, e, mode)]
        cs.append(c)
        if max(abs(a) for a in c) * h ** len(cs) < SERIES_TOL and len(cs) > 8:
            return cs


def at(cs, t):
    """The series summed at t (Horner)."""
    out = list(cs[-1])
    for c in reversed(cs[:-1]):
        out = [a * t + b for a, b in zip(out, c)]
    return out


def fired(x, mode):
    """The contacts whose phase has ended at state x (an event function's sign)."""
    nc = len(mode)
    out = []
    for j in range(nc):
        vn, d = x[j], x[nc + j]
        if mode[j] == "closing" and vn > 0:
            out.append(j)
        elif mode[j] == "opening" and (vn < 0 or d < 0):
            out.append(j)
        elif mode[j] == "separated" and vn < 0:
            out.append(j)
    return out


def solve(n, e, k, h):
    """The law from ball 0 at 1 m/s: (final x, number of phase changes)."""
    nc = n - 1
    x = [mpf(0)] * (3 * nc)
    x[0] = mpf(-1)
    mode = ["closing"] + ["separated"] * (nc - 1)
    events = 0
    while True:
        if all(m == "separated" for m in mode) and all(v >= 0 for v in x[:nc]):
            return x, events
        cs = series(x, k, e, mode, h)
        lo = None
        for i in range(1, 9):                       # the first sign change within the step
            if fired(at(cs, h * i / 8), mode):
                lo, hi = h * (i - 1) / 8, h * i / 8
                break
        if lo is None:
            x = at(cs, h)
            continue
        while hi - lo > ROOT_TOL:
            mid = (lo + hi) / 2
            if fired(at(cs, mid), mode):
                hi = mid
            else:
                lo = mid
        x = at(cs, hi)
        for j in fired(x, mode):
            vn, d = x[j], x[nc + j]
            if mode[j] == "opening" and d < 0:
                mode[j] = "separated"
                x[nc + j] = mpf(0)                  # its energy is spent
            elif mode[j] in ("closing", "opening"):
                mode[j] = "opening" if vn > 0 else "closing"
            else:
                mode[j] = "closing"
            events += 1
        if events > 20000:
            raise SystemExit("more than 20000 phase changes")


def velocities(n, x):
    """The balls' velocities from the impulses (ball 0 at 1 m/s before)."""
    nc = n - 1
    P = x[2 * nc:]
    return [(1 if i == 0 else 0) - (P[i] if i < nc else 0) + (P[i - 1] if i > 0 else 0)
            for i in range(n)]


def main():
    rows = []
    for name, n, e, k in CASES:
        x, events = solve(n, e, k, H_STEP)
        x2, events2 = solve(n, e, k, H_STEP / 2)
        v, v2 = velocities(n, x), velocities(n, x2)
        diff = max(abs(a - b) for a, b in zip(v, v2))
        if diff > mpf("1e-25") or events != events2:
            raise SystemExit("%s: the two step sizes disagree (%s, %d and %d events)"
                             % (name, mp.nstr(diff, 3), events, events2))
        if abs(sum(v) - 1) > mpf("1e-25"):
            raise SystemExit("%s: momentum not kept (%s)" % (name, sum(v)))
        print("%-10s n %d e %s: v = %s  (%d events, grids agree to %s)"
              % (name, n, mp.nstr(e, 3), ", ".join(mp.nstr(a, 12) for a in v), events,
                 mp.nstr(diff, 2)), flush=True)
        rows.append("%s %d %s %s %s %d" % (name, n, mp.nstr(e, 20), " ".join(mp.nstr(a, 20) for a in k),
                                           " ".join(mp.nstr(a, 22) for a in v), events))
    text = "\n".join(rows) + "\n"
    if "--check" in sys.argv:
        with open(DATA) as f:
            old = f.read().split()
        new = text.split()
        bad = [(a, b) for a, b in zip(old, new) if a != b and not _close(a, b)]
        if len(old) != len(new) or bad:
            print("data/lzb_linear_chain.csv differs from the recomputed reference: %s" % bad[:4])
            return 1
        print("data/lzb_linear_chain.csv matches")
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
