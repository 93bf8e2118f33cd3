"""Renderers of a Maquis position: a text board (``render_ansi``) and a board image (``render_rgb``).

Both read only the plain-Python ``state_dict()`` of docs/api/maquis.md, so they draw any state, hand-built or
from the engine, and never show the hidden order of the patrol deck (only its size). Unknown keys
are ignored. The image is a ``Scene`` of ``maquis.common.drawing`` (``scene``), drawn by Pillow
(``render_rgb``, ``write_png``, ``write_gif``) or as SVG by the web page. The rules' tables (roads, patrol cards, tracks,
difficulties) are the engine's own (``maquis.maquis.tables``); positions come from BOARD_LAYOUT.md.

| module | holds |
|---|---|
| ``position`` | what a state_dict says (day names, morale days, the decision awaited, …) |
| ``ansi`` | the text board |
| ``layout``, ``labels``, ``style`` | where things are, the words on them, the colours |
| ``pieces``, ``town``, ``panel``, ``image`` | the scene: pawns, town and cards, side panel, frame |
"""

from __future__ import annotations

from ..tables import PATROL_CARDS, ROADS
from ...common.drawing import write_gif, write_png
from .ansi import render_ansi
from .image import render_rgb, scene

__all__ = ["PATROL_CARDS", "ROADS", "render_ansi", "render_rgb", "scene", "write_gif", "write_png"]
