"""Which period-1 orbit an initial state of the forced impact oscillator
reaches, computed independently of the runtime (tests/python/test_bifurcation.py
checks nsm.Model.basins with it).

The oscillator of models/forced_impact_oscillator.nsm (m = k = F = 1,
x'' + 2 zeta x' + x = cos(omega t) for x <= 0, a rigid stop at x = 0 with
Newton's restitution e) is followed with its closed-form flow between
impacts: the particular solution A cos(omega t) + B sin(omega t) with
A = (1 - omega^2)/D, B = 2 zeta omega/D, D = (1 - omega^2)^2 + (2 zeta omega)^2,
plus the damped free motion exp(-zeta tau) (c1 cos(wd tau) + c2 sin(wd tau)),
wd = sqrt(1 - zeta^2), from the state after the last impact.  The next
impact is the first sign change of x on a grid of 400 points per forcing
period, bisected to the last bit; the velocity is then reversed and scaled
by e.  No event location, integrator or saltation matrix of the runtime is
used.
"""
import math

import numpy as np


def attractor(x0, v0, omega, zeta=0.05, e=0.8, transient=300, keep=6, grid=400):
    """From (x0, v0) at t = 0: after `transient` forcing periods, the impacts
    of the next `keep` periods as (impacts per period, [(phase, impact
    speed), ...] of the last period), phase = t/T mod 1 of each impact.
    None when an impact speed falls below 1e-7 m/s (a grazing or chattering
    landing, which this reference does not resolve)."""
    D = (1 - omega ** 2) ** 2 + (2 * zeta * omega) ** 2
    A, B = (1 - omega ** 2) / D, 2 * zeta * omega / D
    wd = math.sqrt(1 - zeta ** 2)
    T = 2 * math.pi / omega

    def start(t0, x, v):
        """The free motion's constants from the state (x, v) at t0."""
        c1 = x - (A * math.cos(omega * t0) + B * math.sin(omega * t0))
        vp = omega * (-A * math.sin(omega * t0) + B * math.cos(omega * t0))
        return c1, (v - vp + zeta * c1) / wd

    def pos(t0, c, tau):
        return (np.exp(-zeta * tau) * (c[0] * np.cos(wd * tau) + c[1] * np.sin(wd * tau))
                + A * np.cos(omega * (t0 + tau)) + B * np.sin(omega * (t0 + tau)))

    def vel(t0, c, tau):
        return (math.exp(-zeta * tau) * ((-zeta * c[0] + wd * c[1]) * math.cos(wd * tau)
                                         - (zeta * c[1] + wd * c[0]) * math.sin(wd * tau))
                + omega * (-A * math.sin(omega * (t0 + tau)) + B * math.cos(omega * (t0 + tau))))

    t, x, v, h, tend = 0.0, float(x0), float(v0), T / grid, (transient + keep) * T
    tau = np.arange(1, grid + 1) * h
    impacts = []
    while t < tend:
        c = start(t, x, v)
        xs = pos(t, c, tau)
        above = np.flatnonzero(xs > 0)
        if above.size == 0:
            t, x, v = t + tau[-1], float(xs[-1]), vel(t, c, tau[-1])
            continue
        k = above[0]
        lo, hi = (tau[k - 1] if k > 0 else 0.0), tau[k]
        while True:
            mid = 0.5 * (lo + hi)
            if mid in (lo, hi):
                break
            if pos(t, c, mid) > 0:
                hi = mid
            else:
                lo = mid
        speed = vel(t, c, lo)
        t += lo
        if speed < 1e-7:
            return None
        impacts.append((t, speed))
        x, v = 0.0, -e * speed
    kept = [(ti, s) for ti, s in impacts if transient * T < ti <= tend]
    last = [((ti / T) % 1.0, s) for ti, s in kept if ti > tend - T]
    return len(kept) / keep, last
