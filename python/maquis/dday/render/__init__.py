"""Renderers of a D-Day 1944 position: a text view (``render_ansi``) and an image (``render_rgb``).

Both read only the plain-Python ``state_dict()`` of docs/api/dday1944.md (hand-built or from the engine), and
show what it holds; ``side_view`` first removes what one side may not see (RULES O1–O4), for
``maquis dday play``. The image is a ``Scene`` of ``maquis.common.drawing`` (``scene``), drawn by
Pillow (``render_rgb``, ``write_png``) or as SVG by the web page.

| module | holds |
|---|---|
| ``view`` | what a state_dict says, and a side's view of it |
| ``ansi`` | the text view |
| ``image`` | the scene and its picture |
"""

from __future__ import annotations

from ...common.drawing import write_gif, write_png
from .ansi import render_ansi
from .image import render_rgb, scene
from .view import side_view

RENDER_MODES = ("ansi", "rgb_array", "human")


def render_state(state_dict, mode):
    """``render()`` of the D-Day environments: ``"ansi"`` a str, ``"rgb_array"`` an (H, W, 3)
    uint8 array, ``"human"`` prints the text view and returns None (as PettingZoo expects);
    ``None`` (no render mode) warns and returns None, as Gymnasium expects."""
    if mode is None:
        import gymnasium as gym

        gym.logger.warn(
            "You are calling render() without a render mode: "
            'create the environment with render_mode="ansi" or "rgb_array".'
        )
        return None
    if mode == "human":
        print(render_ansi(state_dict))
        return None
    if mode == "ansi":
        return render_ansi(state_dict)
    if mode == "rgb_array":
        return render_rgb(state_dict)
    raise ValueError(f"unknown render mode {mode!r}: expected one of {RENDER_MODES}")


__all__ = ["RENDER_MODES", "render_ansi", "render_rgb", "render_state", "scene", "side_view", "write_gif", "write_png"]
