"""Output columns of any quantity from Python: the record arrays of
nsm.compile(...).run() hold the springs' forces, the friction element's
force and slip velocity and the expression columns, with their units,
against closed forms (see check_outputs.py for the same on the CSV)."""
import math
import os

import numpy as np

import nsm

HERE = os.path.dirname(os.path.abspath(__file__))


def test_spring_and_expression_columns():
    """S1.force = k1 x1 + c1 v1 and d = M2.x - M1.x in the run's arrays."""
    m = nsm.compile(os.path.join(HERE, "two_mass_outputs.nsm"))
    names = [o.name for o in m.outputs]
    assert "S1.force" in names and "d" in names and "M2.x - M1.x" in names
    r = m.run(method="exact", every=0.01)
    assert r.units["S1.force"] == "N" and r.units["d"] == "m" and r.units["p1"] == "N*s"
    np.testing.assert_allclose(r["S1.force"], 2.0 * r["M1.x"] + 1.0 * r["M1.v"],
                               rtol=0, atol=1e-13)
    np.testing.assert_allclose(r["S2.force"], -(1.0 * r["M2.x"] + 1.0 * r["M2.v"]),
                               rtol=0, atol=1e-13)
    np.testing.assert_array_equal(r["d"], r["M2.x - M1.x"])
    np.testing.assert_allclose(r["d"], r["M2.x"] - r["M1.x"], rtol=0, atol=1e-15)
    # stuck together at first: x'' = -(3 x + 2 v)/10 from x = -1, closed form
    t = r.t[r.t < 3.0]
    g, wd = 0.1, math.sqrt(0.29)
    x = np.exp(-g * t) * (-np.cos(wd * t) - g / wd * np.sin(wd * t))
    v = np.exp(-g * t) * (0.3 / wd) * np.sin(wd * t)
    np.testing.assert_allclose(r["M1.x"][:len(t)], x, rtol=0, atol=1e-12)
    np.testing.assert_allclose(r["S1.force"][:len(t)], 2 * x + v, rtol=0, atol=1e-12)


def test_friction_force_while_sliding():
    """F.force = -mu_k N sign(slip), N = P + Q sin(w t) the floor's force."""
    m = nsm.compile(os.path.join(HERE, "sliding_block_outputs.nsm"))
    r = m.run()
    N = 9.81 + 3.0 * np.sin(r.t)
    np.testing.assert_allclose(r["floor.force"], N, rtol=0, atol=1e-12)
    np.testing.assert_allclose(r["N"], N, rtol=0, atol=1e-12)
    assert r.units["F.force"] == "N" and r.units["F.slip"] == "m/s"
    slide = np.abs(r["F.slip"]) > 1e-9
    assert slide.sum() > 1000
    np.testing.assert_allclose(r["F.force"][slide],
                               -0.3 * N[slide] * np.sign(r["F.slip"][slide]), rtol=0, atol=1e-12)
