"""The board image (``render_rgb``): the town, the mission cards and the side panel on one frame,
drawn at a whole multiple of the 960 x 720 base frame and scaled down by area averaging."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..tables import SLOTS
from .canvas import Canvas
from .panel import draw_panel
from .style import BACKGROUND, BASE_HEIGHT, BASE_WIDTH, BOARD, OUTCOME_BANNERS
from .town import draw_card, draw_town


def draw_outcome(c: Canvas, sd: Mapping) -> None:
    text, color = OUTCOME_BANNERS.get(sd["outcome"], (str(sd["outcome"]).upper(), (110, 110, 120)))
    bx0, by0, bx1, by1 = BOARD
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2 - 30
    w = c.text_width(text, 5) + 60
    c.rect(cx - w / 2 + 4, cy - 36, cx + w / 2 + 4, cy + 44, (40, 30, 20))
    c.rect(cx - w / 2, cy - 40, cx + w / 2, cy + 40, color)
    c.frame(cx - w / 2, cy - 40, cx + w / 2, cy + 40, (255, 255, 255), 3)
    c.text(cx, cy, text, (255, 255, 255), 5, align="center", middle=True)


def _resize_axis(img: np.ndarray, n_out: int, axis: int) -> np.ndarray:
    """Resample ``img`` to ``n_out`` pixels along ``axis``: each output pixel is the mean of the
    input pixels under its footprint, weighted by how much of each it covers."""
    a = np.moveaxis(img, axis, 0)
    n_in = a.shape[0]
    scale = n_in / n_out
    start = np.arange(n_out) * scale
    first = start.astype(int)
    out = np.zeros((n_out, *a.shape[1:]), np.float32)
    for k in range(int(np.ceil(scale)) + 1):  # the input pixels one footprint can touch
        j = first + k
        cover = np.clip(np.minimum(start + scale, j + 1) - np.maximum(start, j), 0, None) / scale
        out += cover.astype(np.float32).reshape(-1, *([1] * (a.ndim - 1))) * a[np.minimum(j, n_in - 1)]
    return np.moveaxis(out, 0, axis)


def render_rgb(sd: Mapping, width: int = 960) -> np.ndarray:
    """An image of the position, shape (round(width * 3 / 4), width, 3), dtype uint8.

    The town with its roads, river and bridges at the BOARD_LAYOUT.md positions, the two mission
    cards above it, and a side panel with the tracks, resources, workers, patrols and phase. The
    layout is made for 960 pixels wide (sharpest at multiples of 960); other widths are drawn at
    the next multiple and scaled down by area averaging.
    """
    if width < 16:
        raise ValueError(f"width must be at least 16 pixels, got {width}")
    c = Canvas(-(-width // BASE_WIDTH))
    c.rect(0, 0, BASE_WIDTH, BASE_HEIGHT, BACKGROUND)
    draw_town(c, sd)
    for slot in SLOTS:
        draw_card(c, sd, slot)
    draw_panel(c, sd)
    if sd.get("outcome") is not None:
        draw_outcome(c, sd)
    img = c.img
    height = round(BASE_HEIGHT * width / BASE_WIDTH)
    if img.shape[:2] != (height, width):
        img = _resize_axis(_resize_axis(img, height, 0), width, 1)
    return np.clip(img + 0.5, 0, 255).astype(np.uint8)
