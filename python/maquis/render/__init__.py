"""Renderers of a Maquis position: a text board (``render_ansi``) and a board image (``render_rgb``).

Both read only the plain-Python ``state_dict()`` of API.md, so they draw any state, hand-built or
from the engine, and never show the hidden order of the patrol deck (only its size). Unknown keys
are ignored. The image is drawn with numpy alone; ``write_png`` needs only the standard library,
and ``write_gif`` uses Pillow when it is installed. The rules' tables (roads, patrol cards, tracks,
difficulties) are the engine's own (``maquis.tables``); positions come from BOARD_LAYOUT.md.

| module | holds |
|---|---|
| ``position`` | what a state_dict says (day names, morale days, the decision awaited, …) |
| ``ansi`` | the text board |
| ``layout``, ``labels``, ``style`` | where things are, the words on them, the colours |
| ``canvas``, ``font`` | numpy drawing primitives and the bitmap font |
| ``pieces``, ``town``, ``panel``, ``image`` | the image: pawns, town and cards, side panel, frame |
| ``files`` | PNG and GIF files |
"""

from __future__ import annotations

from ..tables import PATROL_CARDS, ROADS
from .ansi import render_ansi
from .files import write_gif, write_png
from .image import render_rgb

__all__ = ["PATROL_CARDS", "ROADS", "render_ansi", "render_rgb", "write_gif", "write_png"]
