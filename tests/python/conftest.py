"""Shared fixtures of the Python package's tests (run by ctest, tests/python.cmake).

The environment comes from ctest: PYTHONPATH holds the build tree's python/
folder, NSM_SOURCE_DIR and NSM_BUILD_DIR the two trees, XDG_CACHE_HOME a
cache inside the build tree.
"""
import csv
import os

import pytest

SRC = os.environ.get("NSM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.fixture(scope="session")
def src():
    """The source tree."""
    return SRC


@pytest.fixture(scope="session")
def model_path():
    """Path of a model of models/."""
    return lambda name: os.path.join(SRC, "models", name + ".nsm")


@pytest.fixture(scope="session")
def two_mass_reference():
    """Events (t, kind, contact) and samples of the independent mpmath
    reference of Dedow & Murphy's first case (tests/reference, e = 0.9)."""
    d = os.path.join(SRC, "tests", "reference", "data")
    with open(os.path.join(d, "two_mass_a.events.csv")) as f:
        events = [(float(r["t"]), r["kind"], r["contact"]) for r in csv.DictReader(f)]
    with open(os.path.join(d, "two_mass_a.samples.csv")) as f:
        samples = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    return events, samples
