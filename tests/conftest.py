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


# With MAQUIS_ONLY_CUDA_SKIPS=1 (CI, which installs every extra), a test skipped for any other
# reason than a missing CUDA device fails the run: a training test must not go unseen because a
# package went missing from the extras.
_ALLOWED_SKIP = ("CUDA", "cuda")
_unexpected_skips: list[str] = []


def pytest_runtest_logreport(report):
    import os

    if os.environ.get("MAQUIS_ONLY_CUDA_SKIPS") == "1" and report.skipped and not hasattr(report, "wasxfail"):
        reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if not any(word in reason for word in _ALLOWED_SKIP):
            _unexpected_skips.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session, exitstatus):
    if _unexpected_skips and exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter):
    if _unexpected_skips:
        terminalreporter.section("skipped for a reason other than CUDA (MAQUIS_ONLY_CUDA_SKIPS=1)")
        for line in _unexpected_skips:
            terminalreporter.write_line(line)
