"""The board picture: ``scene`` draws the town, the mission cards and the side panel as one
``Scene`` (960 x 720 units, the same drawing the web page shows as SVG); ``render_rgb`` is that
scene through Pillow."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...common.drawing import Scene, Sketch, scene_pixels
from ..tables import SLOTS
from .panel import draw_panel
from .style import BACKGROUND, BASE_HEIGHT, BASE_WIDTH, BOARD, OUTCOME_BANNERS, TEXT_SIZE
from .town import draw_card, draw_town


def draw_outcome(c: Sketch, sd: Mapping) -> None:
    text, color = OUTCOME_BANNERS.get(sd["outcome"], (str(sd["outcome"]).upper(), (110, 110, 120)))
    bx0, by0, bx1, by1 = BOARD
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2 - 30
    w = c.text_width(text, 5, bold=True) + 60
    c.rect(cx - w / 2 + 4, cy - 36, cx + w / 2 + 4, cy + 44, (40, 30, 20))
    c.rect(cx - w / 2, cy - 40, cx + w / 2, cy + 40, color)
    c.frame(cx - w / 2, cy - 40, cx + w / 2, cy + 40, (255, 255, 255), 3)
    c.text(cx, cy, text, (255, 255, 255), 5, align="center", middle=True, bold=True)


def scene(sd: Mapping, side: str | None = None) -> Scene:
    """The position as a Scene: the town with its roads, river and bridges at the BOARD_LAYOUT.md
    positions, the two mission cards above it, and a side panel with the tracks, resources,
    workers, patrols and phase. Locations carry their ``place:<location>`` action.

    Maquis has one player, and a state_dict holds nothing hidden from it but the patrol deck's
    order, which is never drawn (only its size): ``side`` is accepted for the common signature and
    must be None or ``"player"``.
    """
    if side not in (None, "player"):
        raise ValueError(f"Maquis has one side, 'player'; got side={side!r}")
    c = Sketch(BASE_WIDTH, BASE_HEIGHT, BACKGROUND, TEXT_SIZE)
    draw_town(c, sd)
    for slot in SLOTS:
        draw_card(c, sd, slot)
    draw_panel(c, sd)
    if sd.get("outcome") is not None:
        draw_outcome(c, sd)
    return c.scene()


def render_rgb(sd: Mapping, width: int = 960) -> np.ndarray:
    """The picture of ``scene(sd)``, shape (round(width * 3 / 4), width, 3), dtype uint8."""
    return scene_pixels(scene(sd), width)
