"""docs/python.md, run as the page says: every ```python block in order, in one
namespace, in a folder holding the repository's models/; then its results
against the independent mpmath reference of the two-mass system."""
import os
import re

import numpy as np


def blocks(text):
    """The code of every ```python block, in order."""
    return [m.group(1) for m in re.finditer(r"^```python[ \t]*\n(.*?)^```", text, re.S | re.M)]


def test_python_md(src, two_mass_reference, tmp_path, monkeypatch, capsys):
    text = open(os.path.join(src, "docs", "python.md"), encoding="utf-8").read()
    code = blocks(text)
    assert len(code) >= 5
    os.symlink(os.path.join(src, "models"), tmp_path / "models")
    monkeypatch.chdir(tmp_path)
    ns = {"__name__": "python_md"}
    for i, c in enumerate(code):
        exec(compile(c, "docs/python.md block %d" % (i + 1), "exec"), ns)
    out = capsys.readouterr().out
    # the run the page shows reproduces the reference's events
    ref_events, _ = two_mass_reference
    r = ns["r"]
    ev = r.events[r.events["kind"] != "stick"]
    assert list(ev["kind"]) == [k for _, k, _ in ref_events]
    np.testing.assert_allclose(ev["t"], [t for t, _, _ in ref_events], rtol=0, atol=1e-9)
    # and the page's printed table says so too, to the digits it shows
    for t, kind, contact in ref_events:
        assert re.search(r"^%.9f s  %-10s %s " % (t, kind, contact), out, re.M), (t, kind)
    # the plots were drawn; the error examples raised what the page says
    for png in ("two_mass.png", "two_mass_phase.png"):
        with open(png, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert "refused: invalid value 2 of parameter 'e'" in out
    assert "NSM_EEVENTS at t =" in out and "in contact floor" in out
    assert len(ns["partial"].events) > 0
    # the small bifurcation study: period 1 below the first doubling (2.6589),
    # period 2 above it, a positive largest exponent at omega = 2.8 (chaos);
    # the multipliers inside the unit circle at 2.6
    study = ns["study"]
    assert [n for _, n, _ in study[:3]] == [1, 1, 2]
    assert all(lam < 0 for _, _, lam in study[:3]) and study[3][2] > 0.05
    assert np.all(np.abs(ns["mu"]) < 1)
    # the continuation study: the period doubling against the mpmath
    # reference (tests/reference/data), the doubled branch switched onto,
    # the period-doubling curve starting there, two basins
    with open(os.path.join(src, "tests", "reference", "data",
                           "forced_impact_oscillator.doubling.csv")) as f:
        wpd = float(f.read().splitlines()[1].split(",")[0])
    br, pd = ns["branch"], ns["pd"]
    (i,) = np.flatnonzero(br.kind == "flip")[:1]
    assert abs(br.param[i] - wpd) < 1e-10 and br.kind[i + 1] == "switch"
    assert br.impacts[i + 1] == 2 and abs(br.period[i + 1] - 2 * br.period[i]) < 1e-3
    assert abs(pd.param[0] - wpd) < 1e-10 and pd.param2[0] == 0.8 and pd.param[-1] > pd.param[0]
    assert ns["p"].shape == (31 * 30,) and ns["rec"].shape == (31 * 30, 4)
    assert sorted(int(a["records"]) for a in ns["attractors"]) == [2, 3]
    assert ns["labels"].shape == (16, 16)
    with open("bifurcation_study.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
