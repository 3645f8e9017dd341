#!/usr/bin/env python3
"""Model.floquet after a transient that is not a whole number of periods.

models/forced_impact_oscillator.nsm at omega = 2.5 (T = 2 pi / omega).
nsm_sim_periodic_orbit seeks the orbit through t = 0, at the forcing's
phase 0; floquet(transient=50) handed it the state at t = 50 s, 7.9 periods
in, as if it were a state at phase 0.  From that guess Newton's method
stepped into the stop (x = +175.8 m, "initial state penetrates the gap")
or, for other transients, converged to some other T-periodic solution.

Checked, for transients 0, 10, 49, 50, 50.2 and 100 s and 200 periods:
  * floquet returns (no error), and the state y it returns is periodic: the
    model's own run from y over one period comes back to y (1e-8);
  * its multipliers are the eigenvalues of the Poincare map's Jacobian at
    y, finite-differenced here from runs of the model from perturbed
    states over one period (central differences, h = 1e-6; 1e-6) -- a
    reference that uses neither the saltation matrices nor the monodromy
    code under test;
  * every transient past the attractor's reach finds the same attractor;
  * guesses from which Newton's full step jumps through the stop (which
    ended in "t = 0 s ... initial state penetrates the gap (gap = -175.8)",
    a start the caller never gave) find the orbit, the step shortened;
  * a guess whose iteration is drawn to an impact at t = 0 is refused
    naming Newton's step.

usage: floquet_transient_test.py   (PYTHONPATH naming the built package,
NSM_SOURCE_DIR the source tree)
"""
import math
import os
import sys

import numpy as np

import nsm

OMEGA = 2.5
T = 2 * math.pi / OMEGA
H = 1e-6


def poincare(model, y):
    """The state one forcing period after y at t = 0, by the model's run."""
    r = model.run(init=list(y), t_end=T, every=T / 8, params={"omega": OMEGA}, method="exact")
    assert abs(r.t[-1] - T) <= 1e-12 * T, r.t[-1]
    return r.state[-1]


def fd_multipliers(model, y):
    """Eigenvalues of the Poincare map's Jacobian at y, central differences."""
    n = len(y)
    J = np.zeros((n, n))
    for j in range(n):
        d = np.zeros(n)
        d[j] = H
        J[:, j] = (poincare(model, y + d) - poincare(model, y - d)) / (2 * H)
    return np.linalg.eigvals(J)


def same_set(a, b, tol):
    """Whether the multisets a and b match within tol (greedy pairing)."""
    b = list(b)
    for z in a:
        k = min(range(len(b)), key=lambda i: abs(b[i] - z))
        if abs(b[k] - z) > tol:
            return False
        b.pop(k)
    return True


def main():
    src = os.environ.get("NSM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
    model = nsm.compile(os.path.join(src, "models", "forced_impact_oscillator.nsm"))
    failures = []
    found = {}
    for tr in (0, 10, 49, 50, 50.2, 100, 200 * T):
        try:
            y, mu = model.floquet("2*pi/omega", transient=tr, params={"omega": OMEGA})
        except nsm.Error as e:
            failures.append("transient %r: %s: %s" % (tr, type(e).__name__, e))
            continue
        back = poincare(model, y)
        if not np.all(np.abs(back - y) <= 1e-8 * max(1.0, np.max(np.abs(y)))):
            failures.append("transient %r: y = %r is not periodic (comes back to %r)"
                            % (tr, y, back))
            continue
        ref = fd_multipliers(model, y)
        err = max(min(abs(z - w) for w in ref) for z in mu)
        print("transient %-8.6g y = (%.12f, %.12f)  mu = %s  finite differences %s  (%.1e)"
              % (tr, y[0], y[1], np.round(mu, 9), np.round(ref, 9), err))
        if not same_set(mu, ref, 1e-6):
            failures.append("transient %r: multipliers %r, finite differences %r" % (tr, mu, ref))
        found[tr] = y
    # guesses from which Newton's full step jumps through the stop (x > 0):
    # the step is shortened, and the stable orbit is found
    for x, v in ((-1.0, 0.0), (-2.0, 1.0), (-4.0, 2.0), (-0.05, 4.0)):
        try:
            y, mu = model.floquet("2*pi/omega", init={"M.x": x, "M.v": v},
                                  params={"omega": OMEGA})
        except nsm.Error as e:
            failures.append("guess (%r, %r): %s: %s" % (x, v, type(e).__name__, e))
            continue
        ref = fd_multipliers(model, y)
        print("guess (%g, %g): y = (%.12f, %.12f)  mu = %s  finite differences %s"
              % (x, v, y[0], y[1], np.round(mu, 9), np.round(ref, 9)))
        if not np.allclose(poincare(model, y), y, atol=1e-8) or not same_set(mu, ref, 1e-6):
            failures.append("guess (%r, %r): y %r, multipliers %r, finite differences %r"
                            % (x, v, y, mu, ref))
    # a guess whose iteration is drawn to an impact at t = 0: refused naming
    # Newton's step, not as a start inside the gap the caller never gave
    try:
        model.floquet("2*pi/omega", init={"M.x": -0.5, "M.v": 1.0}, params={"omega": OMEGA})
        failures.append("guess (-0.5, 1): no error, no orbit expected")
    except nsm.Error as e:
        print("guess (-0.5, 1):", e)
        if "Newton's step" not in str(e):
            failures.append("guess (-0.5, 1): the message does not name Newton's step: %s" % e)
    # past a few hundred seconds every start has reached the stable orbit
    if 100 in found and 200 * T in found and not np.allclose(found[100], found[200 * T],
                                                              atol=1e-8):
        failures.append("transients 100 s and 200 periods find different orbits: %r, %r"
                        % (found[100], found[200 * T]))
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
