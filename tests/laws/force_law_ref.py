#!/usr/bin/env python3
"""Reference numbers of test_force_law.c, from closed forms and mpmath.

1. The exponential contact law f(p) = k d (exp(p/d) - 1) (force_law.c): a
   mass m meets it at speed v0 with no other force.  The contact is
   conservative, so it leaves at v0; the deepest penetration P solves
   V(P) = m v0^2 / 2 with V(p) = k d (d (exp(p/d) - 1) - p), and the contact
   lasts T = 2 integral_0^P dp / sqrt(v0^2 - 2 V(p) / m) (the time to P and
   back), with p = P (1 - s^2) to take the 1/sqrt end away.
2. The damped linear penalty released by gap (test case 3): printed by the
   test itself from the damped oscillator's closed form; nothing here.

Run: python3 tests/laws/force_law_ref.py
"""
import mpmath as mp

mp.mp.dps = 40
m, v0, k, d = mp.mpf(1), mp.mpf(1), mp.mpf(10000), mp.mpf("0.001")


def V(p):
    return k * d * (d * mp.expm1(p / d) - p)


P = mp.findroot(lambda p: V(p) / (m * v0 ** 2 / 2) - 1, (mp.mpf("0.001"), mp.mpf("0.01")), solver="anderson")
# p = P (1 - s^2) takes the 1/sqrt end at P away: dp = -2 P s ds
T = 2 * mp.quad(lambda s: 2 * P * s / mp.sqrt(v0 ** 2 - 2 * V(P * (1 - s * s)) / m), [0, 1])
print("deepest penetration P = %s m" % mp.nstr(P, 20))
print("contact duration    T = %s s" % mp.nstr(T, 20))
