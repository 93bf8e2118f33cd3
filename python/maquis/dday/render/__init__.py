"""Renderers of a D-Day 1944 position: a text view (``render_ansi``) and an image (``render_rgb``).

Both read only the plain-Python ``state_dict()`` of API.md (hand-built or from the engine), and
show what it holds; ``side_view`` first removes what one side may not see (RULES O1–O4), for
``maquis dday play``. The image is drawn with the Maquis canvas and bitmap font (numpy alone).

| module | holds |
|---|---|
| ``view`` | what a state_dict says, and a side's view of it |
| ``ansi`` | the text view |
| ``image`` | the image |
"""

from __future__ import annotations

from ...render.files import write_png
from .ansi import render_ansi
from .image import render_rgb
from .view import side_view

RENDER_MODES = ("ansi", "rgb_array")


def render_state(state_dict, mode):
    """``render()`` of the D-Day environments: ``"ansi"`` a str, ``"rgb_array"`` an (H, W, 3)
    uint8 array; ``None`` (no render mode) warns and returns None, as Gymnasium expects."""
    if mode is None:
        import gymnasium as gym

        gym.logger.warn(
            "You are calling render() without a render mode: "
            'create the environment with render_mode="ansi" or "rgb_array".'
        )
        return None
    if mode == "ansi":
        return render_ansi(state_dict)
    if mode == "rgb_array":
        return render_rgb(state_dict)
    raise ValueError(f"unknown render mode {mode!r}: expected one of {RENDER_MODES}")


__all__ = ["RENDER_MODES", "render_ansi", "render_rgb", "render_state", "side_view", "write_png"]
