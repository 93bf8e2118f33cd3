"""Shared fixtures of the Python tests (the engine is imported inside the fixtures that need it)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest


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


@pytest.fixture
def read_png():
    """The (H, W, 3) uint8 pixels of a PNG, read by Pillow."""
    from PIL import Image

    def read(path):
        with Image.open(path) as im:
            assert im.format == "PNG"
            return np.asarray(im.convert("RGB"))

    return read
