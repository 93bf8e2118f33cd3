"""Drawing with numpy alone: a float RGB canvas with rectangles, anti-aliased discs and lines, and
text in the bitmap font of ``font.py``."""

from __future__ import annotations

import numpy as np

from . import font
from .style import BASE_HEIGHT, BASE_WIDTH

_GLYPHS: dict[str, np.ndarray] = {}


def _glyph(ch: str) -> np.ndarray:
    """The glyph of ``ch`` and its spacing column, as a bool array (GLYPH_HEIGHT, CELL_WIDTH)."""
    if ch not in _GLYPHS:
        rows = font.glyph_rows(ch)
        spacing = font.CELL_WIDTH - font.GLYPH_WIDTH
        bits = [
            [r >> (font.GLYPH_WIDTH - 1 - x) & 1 for x in range(font.GLYPH_WIDTH)] + [0] * spacing
            for r in rows
        ]
        _GLYPHS[ch] = np.array(bits, dtype=bool)
    return _GLYPHS[ch]


class Canvas:
    """A float RGB image of the 960 x 720 base frame, ``u`` (a whole number) pixels per base unit."""

    def __init__(self, u: int):
        self.img = np.zeros((BASE_HEIGHT * u, BASE_WIDTH * u, 3), np.float32)
        self.u = u
        self.dot = u  # pixels per font dot at text scale 1

    def _span(self, a: float, b: float, limit: int) -> tuple[int, int]:
        return max(0, round(a * self.u)), min(limit, round(b * self.u))

    def rect(self, x0, y0, x1, y1, color) -> None:
        h, w = self.img.shape[:2]
        (c0, c1), (r0, r1) = self._span(x0, x1, w), self._span(y0, y1, h)
        if c0 < c1 and r0 < r1:
            self.img[r0:r1, c0:c1] = color

    def frame(self, x0, y0, x1, y1, color, t=1.0) -> None:
        self.rect(x0, y0, x1, y0 + t, color)
        self.rect(x0, y1 - t, x1, y1, color)
        self.rect(x0, y0, x0 + t, y1, color)
        self.rect(x1 - t, y0, x1, y1, color)

    def _coverage(self, bx0, by0, bx1, by1, alpha_of, color) -> None:
        """Blend ``color`` into the pixel box [bx0, bx1) x [by0, by1) (base units) with the coverage
        ``alpha_of(xs, ys)`` computed at pixel centres, in pixels."""
        h, w = self.img.shape[:2]
        (c0, c1), (r0, r1) = self._span(bx0, bx1, w), self._span(by0, by1, h)
        if c0 >= c1 or r0 >= r1:
            return
        ys, xs = np.mgrid[r0:r1, c0:c1].astype(np.float32) + 0.5
        alpha = alpha_of(xs, ys)[..., None]
        region = self.img[r0:r1, c0:c1]
        region += (np.asarray(color, np.float32) - region) * alpha

    def disc(self, cx, cy, r, color) -> None:
        px, py, pr = cx * self.u, cy * self.u, r * self.u
        self._coverage(
            cx - r - 1,
            cy - r - 1,
            cx + r + 1,
            cy + r + 1,
            lambda xs, ys: np.clip(pr + 0.5 - np.hypot(xs - px, ys - py), 0, 1),
            color,
        )

    def line(self, x0, y0, x1, y1, color, width, dash=0.0) -> None:
        """A straight stroke with round caps; ``dash`` > 0 draws dashes and gaps of that length."""
        length = float(np.hypot(x1 - x0, y1 - y0))
        if dash > 0 and length > dash:
            steps = int(length // dash)
            for i in range(0, steps + 1, 2):
                t0, t1 = i * dash / length, min(1.0, (i + 1) * dash / length)
                self.line(
                    x0 + (x1 - x0) * t0,
                    y0 + (y1 - y0) * t0,
                    x0 + (x1 - x0) * t1,
                    y0 + (y1 - y0) * t1,
                    color,
                    width,
                )
            return
        u, r = self.u, width / 2
        ax, ay, dx, dy, pr = x0 * u, y0 * u, (x1 - x0) * u, (y1 - y0) * u, r * u
        norm = max(dx * dx + dy * dy, 1e-9)

        def alpha(xs, ys):
            t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / norm, 0, 1)
            return np.clip(pr + 0.5 - np.hypot(xs - ax - t * dx, ys - ay - t * dy), 0, 1)

        self._coverage(
            min(x0, x1) - r - 1, min(y0, y1) - r - 1, max(x0, x1) + r + 1, max(y0, y1) + r + 1, alpha, color
        )

    def text_width(self, s: str, scale: int = 1) -> float:
        """Width of ``s`` in base units."""
        return (len(s) * font.CELL_WIDTH - 1) * self.dot * scale / self.u if s else 0.0

    def text(self, x, y, s: str, color, scale: int = 1, align: str = "left", middle=False) -> float:
        """Write ``s`` with its top-left (or top-centre, top-right) at (x, y); ``middle`` centres the
        capitals on y instead. Returns the width in base units."""
        if not s:
            return 0.0
        width = self.text_width(s, scale)
        if align == "center":
            x -= width / 2
        elif align == "right":
            x -= width
        if middle:
            y -= (font.GLYPH_HEIGHT - 1) * self.dot * scale / self.u / 2
        mask = np.concatenate([_glyph(ch) for ch in s], axis=1)[:, :-1]
        mask = mask.repeat(self.dot * scale, axis=0).repeat(self.dot * scale, axis=1)
        h, w = self.img.shape[:2]
        r0, c0 = round(y * self.u), round(x * self.u)
        rr0, cc0 = max(0, r0), max(0, c0)
        rr1, cc1 = min(h, r0 + mask.shape[0]), min(w, c0 + mask.shape[1])
        if rr0 < rr1 and cc0 < cc1:
            sub = mask[rr0 - r0 : rr1 - r0, cc0 - c0 : cc1 - c0]
            self.img[rr0:rr1, cc0:cc1][sub] = color
        return width


def wrap(text: str, chars: int) -> list[str]:
    """``text`` in lines of at most ``chars`` characters, broken between words."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > chars:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])
