"""Image files: PNG with the standard library alone, animated GIF through Pillow."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable

import numpy as np


def write_png(path, rgb: np.ndarray) -> None:
    """Write an (H, W, 3) uint8 image as an 8-bit RGB PNG, with zlib and struct only."""
    rgb = np.asarray(rgb)
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        raise ValueError(f"expected an (H, W, 3) uint8 array, got {rgb.shape} {rgb.dtype}")
    height, width = rgb.shape[:2]
    # Each scanline starts with filter type 0 (none).
    raw = np.concatenate([np.zeros((height, 1), np.uint8), rgb.reshape(height, -1)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw.tobytes(), 6))
        + chunk(b"IEND", b"")
    )
    with open(path, "wb") as f:
        f.write(png)


def write_gif(path, frames: Iterable[np.ndarray], duration_ms: int = 500) -> None:
    """Write frames ((H, W, 3) uint8 images) as a looping animated GIF. Needs Pillow."""
    try:
        from PIL import Image
    except ImportError as err:
        raise RuntimeError(
            "write_gif needs Pillow: `pip install pillow` (or save the frames with write_png)"
        ) from err
    images = [Image.fromarray(np.asarray(f, dtype=np.uint8)) for f in frames]
    if not images:
        raise ValueError("write_gif needs at least one frame")
    images[0].save(path, save_all=True, append_images=images[1:], duration=duration_ms, loop=0)
