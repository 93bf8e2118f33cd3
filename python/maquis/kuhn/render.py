"""Renderers of a Kuhn poker position: a text view (``render_ansi``) and a picture (``scene``, a
``maquis.common.drawing.Scene``, drawn by Pillow as ``render_rgb`` or as SVG by the web page): the
two cards, each face up or face down as the side shown may see it, the pot and the moves so far.

Both read only the plain-Python ``state_dict()``; ``side_view`` first removes what one side may not
see (RULES O1: the other side's card, even after a showdown), and the renderers take ``side=``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..common.drawing import RENDER_MODES, Scene, Sketch, render_state_with, scene_pixels, write_gif, write_png

__all__ = ["RENDER_MODES", "render_ansi", "render_rgb", "render_state", "scene", "side_view", "write_gif", "write_png"]

SIDES = ("first", "second")
BASE_WIDTH, BASE_HEIGHT = 480, 300
CARD_W, CARD_H = 96, 136
BACKGROUND = (34, 102, 68)  # the felt
INK = (245, 245, 240)
CARD_FACE = (250, 248, 240)
CARD_BACK = (150, 40, 48)
CARD_INK = (30, 30, 36)
CHIP = (236, 190, 60)


def side_view(state_dict: Mapping[str, Any], side: str) -> dict[str, Any]:
    """What `side` may see of a state_dict: the other side's card is None (RULES O1), and
    `viewer` names the side."""
    if side not in SIDES:
        raise ValueError(f"side must be 'first' or 'second', got {side!r}")
    out = dict(state_dict)
    cards = dict(out.get("cards") or {})
    for other in SIDES:
        if other != side:
            cards[other] = None
    out["cards"], out["viewer"] = cards, side
    return out


def _view(state_dict: Mapping[str, Any], side: str | None) -> Mapping[str, Any]:
    return side_view(state_dict, side) if side else state_dict


def status_line(sd: Mapping[str, Any]) -> str:
    """Who is to move, or how the hand ended."""
    if sd.get("winner"):
        payoff = sd.get("payoff") or {}
        return f"{sd['winner']} wins the pot of {sd['pot']} ({payoff.get(sd['winner'], 0):+d} chips)"
    return f"{sd.get('to_move') or 'nobody'} to move, pot {sd['pot']}"


def history_words(sd: Mapping[str, Any]) -> str:
    """The moves so far, `first: bet, second: pass` (the sides alternate, `first` first)."""
    moves = list(sd.get("history") or [])
    return ", ".join(f"{SIDES[k % 2]}: {m}" for k, m in enumerate(moves)) or "no move yet"


def render_ansi(state_dict: Mapping[str, Any], side: str | None = None) -> str:
    """The text view: each side's card (`?` where hidden), the pot, the moves and the status."""
    sd = _view(state_dict, side)
    cards = sd.get("cards") or {}
    lines = [f"Kuhn poker | {status_line(sd)}"]
    for s in SIDES:
        mark = " (you)" if sd.get("viewer") == s else ""
        lines.append(f"  {s:<6} card {cards.get(s) or '?'}{mark}")
    lines.append(f"  moves: {history_words(sd)}")
    return "\n".join(lines) + "\n"


def _card(c: Sketch, x: float, y: float, card: str | None, label: str) -> None:
    if card is None:  # face down: the back's pattern, nothing of the card
        c.rect(x, y, x + CARD_W, y + CARD_H, fill=CARD_BACK, stroke=INK, width=2, radius=8)
        for k in range(1, 6):
            c.line(x + 8, y + k * CARD_H / 6, x + CARD_W - 8, y + k * CARD_H / 6, (190, 90, 96), 1.5)
    else:
        c.rect(x, y, x + CARD_W, y + CARD_H, fill=CARD_FACE, stroke=CARD_INK, width=2, radius=8)
        c.text(x + CARD_W / 2, y + CARD_H / 2, card, CARD_INK, scale=4.0, align="center", middle=True, bold=True)
    c.text(x + CARD_W / 2, y + CARD_H + 10, label, INK, scale=1.2, align="center")


def scene(state_dict: Mapping[str, Any], side: str | None = None) -> Scene:
    """The picture of a position as `side` sees it (None: everything the state_dict holds)."""
    sd = _view(state_dict, side)
    c = Sketch(BASE_WIDTH, BASE_HEIGHT, BACKGROUND, text_size=12)
    cards = sd.get("cards") or {}
    c.text(BASE_WIDTH / 2, 14, status_line(sd), INK, scale=1.2, align="center", bold=True, fit=BASE_WIDTH - 20)
    for k, s in enumerate(SIDES):
        x = 30 if k == 0 else BASE_WIDTH - 30 - CARD_W
        mark = " (you)" if sd.get("viewer") == s else ""
        _card(c, x, 50, cards.get(s), f"{s}{mark}")
    cx, cy = BASE_WIDTH / 2, 50 + CARD_H / 2
    pot = int(sd.get("pot") or 0)
    for k in range(pot):  # a stack of chips, one a chip in the pot
        c.disc(cx, cy + 24 - 8 * k, 16, CHIP, stroke=CARD_INK, width=1)
    c.text(cx, cy + 48, f"pot {pot}", INK, scale=1.2, align="center")
    c.text(BASE_WIDTH / 2, BASE_HEIGHT - 40, history_words(sd), INK, align="center", fit=BASE_WIDTH - 20)
    return c.scene()


def render_rgb(state_dict: Mapping[str, Any], width: int = BASE_WIDTH, side: str | None = None) -> np.ndarray:
    """The picture as an (H, W, 3) uint8 array, `width` pixels wide."""
    return scene_pixels(scene(state_dict, side), width)


def render_state(state_dict: Mapping[str, Any], mode: str) -> Any:
    """``render()`` of the Kuhn environments (``common.drawing.render_state_with``)."""
    return render_state_with(state_dict, mode, render_ansi, render_rgb)
