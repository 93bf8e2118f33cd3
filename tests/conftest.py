"""Shared fixtures of the Python tests (the engine is imported inside the fixtures that need it)."""

from __future__ import annotations

import struct
import warnings
import zlib
from pathlib import Path

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


def _read_png(path):
    """The (H, W, 3) uint8 pixels of an 8-bit RGB PNG as maquis writes it, checking its
    signature, chunk CRCs and filter bytes."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, pos = {}, 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + body)
        chunks[kind] = chunks.get(kind, b"") + body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, colour) == (8, 2)
    raw = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, 1 + width * 3)
    assert (raw[:, 0] == 0).all()
    return raw[:, 1:].reshape(height, width, 3)


@pytest.fixture
def read_png():
    """Reads back a PNG written by maquis (see `_read_png`)."""
    return _read_png
