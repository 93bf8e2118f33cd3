"""Renderers of a Maurice Lite position: a text view (``render_ansi``, and ``render_compact`` for
the terminal game) and an image (``render_rgb``).

Both read only the plain-Python ``state_dict()`` of docs/api/maurice.md and show what it holds;
``side_view`` first removes what one side may not see (RULES O1–O3: the enemy's hand, the deck's
order), and every renderer takes ``side=`` to do so. The image is a ``Scene`` of
``maquis.common.drawing`` (``scene``), drawn by Pillow (``render_rgb``, ``write_png``) or as SVG by
the web page.

| module | holds |
|---|---|
| ``view`` | what a state_dict says, and a side's view of it |
| ``ansi`` | the text views |
| ``image`` | the scene and its picture |
"""

from __future__ import annotations

from ...common.drawing import RENDER_MODES, render_state_with, write_gif, write_png
from .ansi import render_ansi, render_compact
from .image import render_rgb, scene
from .view import side_view


def render_state(state_dict, mode):
    """``render()`` of the Maurice environments: ``"ansi"`` a str, ``"rgb_array"`` an (H, W, 3)
    uint8 array, ``"human"`` prints the text view; ``None`` warns (``common.drawing``)."""
    return render_state_with(state_dict, mode, render_ansi, render_rgb)


__all__ = [
    "RENDER_MODES", "render_ansi", "render_compact", "render_rgb", "render_state", "scene", "side_view",
    "write_gif", "write_png",
]
