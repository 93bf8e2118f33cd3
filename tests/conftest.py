"""Shared fixtures of the Python tests. The engine is imported lazily, so that tests that do not
need the compiled extension (test_render.py) still run without it."""

from __future__ import annotations

import warnings

import pytest

DIFFICULTIES = ("very_easy", "easy", "normal", "tricky", "hard", "very_hard")


@pytest.fixture
def env():
    """A default MaquisEnv, reset with seed 0."""
    import maquis

    e = maquis.MaquisEnv()
    e.reset(seed=0)
    yield e
    e.close()


@pytest.fixture
def raise_env():
    """A MaquisEnv with illegal_action="raise", reset with seed 0."""
    import maquis

    e = maquis.MaquisEnv(illegal_action="raise")
    e.reset(seed=0)
    yield e
    e.close()


@pytest.fixture
def no_warnings():
    """Turns every warning into an error inside the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield

