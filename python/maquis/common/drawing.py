"""One drawing model for every game's board: a ``Scene`` of plain shapes, and its Pillow backend.

A game's renderer builds a ``Scene`` from a ``state_dict()``; the same scene becomes a picture here
(``scene_to_image``, ``write_png``, ``write_gif``) and an SVG in the web page, so the page and the
images never disagree. Coordinates are in scene units (y down), colours ``"#rrggbb"`` strings.

Each item may carry ``action``, the index of the action it stands for (a page makes it clickable
when that action is legal), and ``title``, a tooltip. Neither changes the picture.

``Text.y`` is the baseline, as in SVG; ``anchor`` is SVG's ``text-anchor``. ``Line.dash`` is SVG's
``stroke-dasharray`` (lengths in scene units).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
import unicodedata
from functools import lru_cache
from typing import Union

import numpy as np
from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "Circle",
    "Item",
    "hex_color",
    "Line",
    "Polygon",
    "Rect",
    "Scene",
    "Sketch",
    "Text",
    "scene_to_array",
    "scene_pixels",
    "scene_to_image",
    "text_width",
    "wrap",
    "write_gif",
    "write_png",
]

ANCHORS = ("start", "middle", "end")


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    radius: float = 0.0
    action: int | None = None
    title: str | None = None


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    action: int | None = None
    title: str | None = None


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float = 1.0
    dash: tuple[float, ...] | None = None
    action: int | None = None
    title: str | None = None


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    action: int | None = None
    title: str | None = None


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: float = 12.0
    fill: str = "#000"
    anchor: str = "start"
    bold: bool = False
    action: int | None = None
    title: str | None = None

    def __post_init__(self) -> None:
        if self.anchor not in ANCHORS:
            raise ValueError(f"Text anchor must be one of {ANCHORS}, got {self.anchor!r}")


Item = Union[Rect, Circle, Line, Polygon, Text]


@dataclass(frozen=True)
class Scene:
    width: float
    height: float
    background: str
    items: tuple[Item, ...] = ()


# Drawn at this many pixels per output pixel, then downsampled: Pillow's shapes are not anti-aliased.
_SUPERSAMPLE = 2
_PIL_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}


@lru_cache(maxsize=64)
def _font(pixels: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled FreeType font at ``pixels`` px: a real font on any machine."""
    return ImageFont.load_default(size=max(1, pixels))


def _bold_stroke(size: float) -> float:
    """The outline that thickens regular glyphs into bold ones (the bundled font has no bold face)."""
    return size / 28


# The bundled font covers ASCII only: these become their ASCII look-alikes, accents are dropped.
_ASCII = str.maketrans({"\u00d7": "x", "\u2014": "-", "\u2013": "-", "\u2192": "->", "\u2190": "<-",
                        "\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2026": "..."})


def _printable(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.translate(_ASCII))
    return "".join(ch for ch in text if ch.isascii() or ch in "\u00b7\u00b0")


@lru_cache(maxsize=4096)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` at ``size`` in scene units, as the Pillow backend draws it."""
    scale = 8  # measure large, so that rounding to whole pixels does not show
    stroke = round(_bold_stroke(size) * scale) if bold else 0
    return _font(round(size * scale)).getlength(_printable(text)) / scale + (2 * stroke / scale if bold else 0)


def _stroke_px(width: float, k: float) -> int:
    return max(1, round(width * k))


def _draw(d: ImageDraw.ImageDraw, item: Item, k: float) -> None:
    if isinstance(item, Rect):
        if item.w <= 0 or item.h <= 0:
            return
        # Pillow strokes inside the box, SVG on its edge: grow the box by half the stroke.
        outline = item.stroke
        width = _stroke_px(item.width, k) if outline else 0
        g = width / 2
        box = (item.x * k - g, item.y * k - g, (item.x + item.w) * k + g - 1, (item.y + item.h) * k + g - 1)
        if item.radius > 0:
            d.rounded_rectangle(box, radius=item.radius * k + g, fill=item.fill, outline=outline, width=width)
        else:
            d.rectangle(box, fill=item.fill, outline=outline, width=width)
    elif isinstance(item, Circle):
        width = _stroke_px(item.width, k) if item.stroke else 0
        r = item.r * k + width / 2
        box = (item.cx * k - r, item.cy * k - r, item.cx * k + r, item.cy * k + r)
        d.ellipse(box, fill=item.fill, outline=item.stroke, width=width)
    elif isinstance(item, Line):
        _draw_line(d, item, k)
    elif isinstance(item, Polygon):
        points = [(x * k, y * k) for x, y in item.points]
        if len(points) < 2:
            return
        if item.fill:
            d.polygon(points, fill=item.fill)
        if item.stroke:
            w = _stroke_px(item.width, k)
            d.line(points + points[:1], fill=item.stroke, width=w, joint="curve")
    elif isinstance(item, Text):
        if not item.text:
            return
        font = _font(round(item.size * k))
        stroke = round(_bold_stroke(item.size) * k) if item.bold else 0
        d.text(
            (item.x * k, item.y * k),
            _printable(item.text),
            fill=item.fill,
            font=font,
            anchor=_PIL_ANCHORS[item.anchor],
            stroke_width=stroke,
            stroke_fill=item.fill if stroke else None,
        )
    else:
        raise TypeError(f"not a drawing item: {item!r}")


def _draw_line(d: ImageDraw.ImageDraw, item: Line, k: float) -> None:
    """A stroke with round caps; with ``dash`` the pattern repeats along it as in SVG."""
    x1, y1, x2, y2 = item.x1 * k, item.y1 * k, item.x2 * k, item.y2 * k
    w = _stroke_px(item.width, k)
    length = float(np.hypot(x2 - x1, y2 - y1))
    segments = [(0.0, length)]
    pattern = [p * k for p in item.dash or () if p > 0]
    if pattern and length > 0:
        if len(pattern) % 2:
            pattern *= 2  # SVG repeats an odd list to make it even
        segments, at, i = [], 0.0, 0
        while at < length:
            step = pattern[i % len(pattern)]
            if i % 2 == 0:
                segments.append((at, min(length, at + step)))
            at, i = at + step, i + 1
    for a, b in segments:
        if length == 0:
            pa = pb = (x1, y1)
        else:
            pa = (x1 + (x2 - x1) * a / length, y1 + (y2 - y1) * a / length)
            pb = (x1 + (x2 - x1) * b / length, y1 + (y2 - y1) * b / length)
        d.line([pa, pb], fill=item.stroke, width=w)
        r = w / 2
        if w > 2:  # round caps, as the pictures always had
            for px, py in (pa, pb):
                d.ellipse((px - r, py - r, px + r, py + r), fill=item.stroke)


def scene_to_image(scene: Scene, scale: float = 1.0) -> Image.Image:
    """The scene as an RGB picture of round(width * scale) x round(height * scale) pixels,
    anti-aliased (drawn at twice the size and downsampled)."""
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale}")
    width, height = round(scene.width * scale), round(scene.height * scale)
    if width < 1 or height < 1:
        raise ValueError(f"a scene of {scene.width} x {scene.height} at scale {scale} has no pixels")
    k = scale * _SUPERSAMPLE
    big = Image.new("RGB", (width * _SUPERSAMPLE, height * _SUPERSAMPLE), scene.background)
    d = ImageDraw.Draw(big)
    for item in scene.items:
        _draw(d, item, k)
    return big.reduce(_SUPERSAMPLE)  # each pixel the mean of the pixels it covers


def scene_to_array(scene: Scene, scale: float = 1.0) -> np.ndarray:
    """The scene as an (H, W, 3) uint8 array (what ``render_mode="rgb_array"`` returns)."""
    return np.asarray(scene_to_image(scene, scale), dtype=np.uint8)


def scene_pixels(scene: Scene, width: int) -> np.ndarray:
    """The scene ``width`` pixels wide (the height in proportion), as an (H, W, 3) uint8 array."""
    if width < 16:
        raise ValueError(f"width must be at least 16 pixels, got {width}")
    return scene_to_array(scene, width / scene.width)


def _as_image(picture) -> Image.Image:
    if isinstance(picture, Image.Image):
        return picture.convert("RGB")
    if isinstance(picture, Scene):
        return scene_to_image(picture)
    rgb = np.asarray(picture)
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        raise ValueError(f"expected an (H, W, 3) uint8 array, got {rgb.shape} {rgb.dtype}")
    return Image.fromarray(rgb, "RGB")


def write_png(path, picture) -> None:
    """Write a picture (a Scene, a PIL image or an (H, W, 3) uint8 array) as a PNG file."""
    _as_image(picture).save(path, format="PNG", optimize=True)


def write_gif(path, frames: Iterable, duration_ms: int = 500) -> None:
    """Write pictures (Scenes, PIL images or (H, W, 3) uint8 arrays) as a looping animated GIF."""
    images: Sequence[Image.Image] = [_as_image(f) for f in frames]
    if not images:
        raise ValueError("write_gif needs at least one frame")
    images[0].save(
        path, format="GIF", save_all=True, append_images=list(images[1:]), duration=duration_ms, loop=0
    )


# Text laid out by its top: the capitals of a ``size`` font stand this many sizes tall.
CAP_HEIGHT = 0.7


def hex_color(color) -> str:
    """``"#rrggbb"`` for an (r, g, b) tuple; a string is returned as it is."""
    if isinstance(color, str):
        return color
    r, g, b = (max(0, min(255, round(v))) for v in color)
    return f"#{r:02x}{g:02x}{b:02x}"


class Sketch:
    """Builds a Scene with boxes given by their corners and text by the top of its capitals, the
    way a board's layout is written; every call appends one item and returns it."""

    def __init__(self, width: float, height: float, background, text_size: float = 10.0):
        self.width, self.height, self.background = width, height, hex_color(background)
        self.text_size = text_size  # the size of ``scale=1`` text
        self.items: list[Item] = []

    def add(self, item: Item) -> Item:
        self.items.append(item)
        return item

    def scene(self) -> Scene:
        return Scene(self.width, self.height, self.background, tuple(self.items))

    def rect(self, x0, y0, x1, y1, fill=None, stroke=None, width=1.0, radius=0.0, **tags) -> Item:
        """A box from (x0, y0) to (x1, y1); a stroke is centred on its edge."""
        fill, stroke = fill and hex_color(fill), stroke and hex_color(stroke)
        return self.add(Rect(x0, y0, x1 - x0, y1 - y0, fill, stroke, width, radius, **tags))

    def frame(self, x0, y0, x1, y1, color, t=1.0, **tags) -> Item:
        """A border ``t`` thick lying inside the box from (x0, y0) to (x1, y1)."""
        return self.rect(x0 + t / 2, y0 + t / 2, x1 - t / 2, y1 - t / 2, None, color, t, **tags)

    def disc(self, cx, cy, r, fill, stroke=None, width=1.0, **tags) -> Item:
        return self.add(Circle(cx, cy, r, hex_color(fill), stroke and hex_color(stroke), width, **tags))

    def line(self, x0, y0, x1, y1, color, width=1.0, dash=None, **tags) -> Item:
        """A stroke with round caps; ``dash`` a length draws dashes and gaps of that length."""
        if isinstance(dash, (int, float)):
            dash = (dash, dash)
        return self.add(Line(x0, y0, x1, y1, hex_color(color), width, dash, **tags))

    def polygon(self, points, fill=None, stroke=None, width=1.0, **tags) -> Item:
        pts = tuple((float(x), float(y)) for x, y in points)
        return self.add(Polygon(pts, fill and hex_color(fill), stroke and hex_color(stroke), width, **tags))

    def text_width(self, s: str, scale: float = 1.0, bold: bool = False) -> float:
        return text_width(s, self.text_size * scale, bold)

    def text(
        self, x, y, s: str, color, scale: float = 1.0, align="left", middle=False, bold=False, fit=None, **tags
    ) -> float:
        """Write ``s`` with the top of its capitals at y (``middle``: centred on y), starting,
        centred or ending at x (``align`` left, center or right), made smaller if it is wider than
        ``fit``. Returns its width."""
        if not s:
            return 0.0
        if fit is not None and self.text_width(s, scale, bold) > fit:
            scale *= fit / self.text_width(s, scale, bold)
        size = self.text_size * scale
        baseline = y + CAP_HEIGHT * size * (0.5 if middle else 1.0)
        anchor = {"left": "start", "center": "middle", "right": "end"}[align]
        self.add(Text(x, baseline, s, size, hex_color(color), anchor, bold, **tags))
        return self.text_width(s, scale, bold)


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


#: The render modes of every game's environments.
RENDER_MODES = ("ansi", "rgb_array", "human")


def render_state_with(state_dict, mode, render_ansi, render_rgb):
    """``render()`` of a game's environments, given its two renderers: ``"ansi"`` a str,
    ``"rgb_array"`` an (H, W, 3) uint8 array, ``"human"`` prints the text view and returns None (as
    PettingZoo expects); ``None`` (no render mode) warns and returns None, as Gymnasium expects."""
    if mode is None:
        from .single import warn_no_render_mode

        warn_no_render_mode()
        return None
    if mode == "human":
        print(render_ansi(state_dict))
        return None
    if mode == "ansi":
        return render_ansi(state_dict)
    if mode == "rgb_array":
        return render_rgb(state_dict)
    raise ValueError(f"unknown render mode {mode!r}: expected one of {RENDER_MODES}")
