"""The game's pieces on the picture: pawns, a stuck worker, badges, the Fake ID token."""

from __future__ import annotations

from ...common.drawing import Sketch
from .style import FAKE_ID, INK, PAWN_R, PAWNS


def draw_pawn(c: Sketch, cx, cy, kind: str, r=PAWN_R) -> None:
    fill, ink, letter = PAWNS.get(kind, ((128, 128, 128), INK, "?"))
    c.disc(cx, cy + 1.5, r + 1, (60, 50, 40))  # shadow, so pawns stand out on any fill
    c.disc(cx, cy, r + 1.5, (30, 24, 20))
    c.disc(cx, cy, r, fill)
    c.text(cx + 0.5, cy, letter, ink, align="center", middle=True)


def draw_stuck(c: Sketch, cx, cy, r=PAWN_R - 1) -> None:
    """A stuck worker: a worker disc behind bars."""
    c.disc(cx, cy, r + 1.5, (30, 24, 20))
    c.disc(cx, cy, r, PAWNS["worker"][0])
    for dx in (-4, 0, 4):
        c.line(cx + dx, cy - r + 2, cx + dx, cy + r - 2, (60, 50, 40), 1.6)


def draw_badge(c: Sketch, x, y, text: str, fill, ink=(255, 255, 255)) -> float:
    w = c.text_width(text) + 4
    c.rect(x, y, x + w, y + 10, fill)
    c.text(x + 2, y + 1, text, ink)
    return w


def draw_fake_id(c: Sketch, cx, cy) -> None:
    """The Fake ID badge, pinned to the top right of a pawn at (cx, cy)."""
    x, y = cx + PAWN_R - 8, cy - PAWN_R - 5
    c.rect(x - 1, y - 1, x + 16, y + 10, (255, 255, 255))
    draw_badge(c, x, y, "ID", FAKE_ID)
