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
  * every transient past the attractor's reach finds the same attractor.

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
