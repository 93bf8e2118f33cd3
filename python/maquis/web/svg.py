"""The SVG backend of `maquis.common.drawing`: a `Scene` as an `<svg>` element for the page.

Items that stand for an action carry `data-action="<index>"`; those whose action is legal now also
get the class `legal`, which the page makes clickable. A `title` becomes an SVG `<title>` tooltip.
"""

from __future__ import annotations

from collections.abc import Collection
from html import escape

from ..common.drawing import Circle, Line, Polygon, Rect, Scene, Text

__all__ = ["scene_to_svg"]


def _num(v: float) -> str:
    """A coordinate, short: no trailing zeros, at most two decimals."""
    text = f"{float(v):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attr(name: str, value) -> str:
    return f' {name}="{escape(str(value), quote=True)}"'


def _paint(fill, stroke, width: float) -> str:
    out = _attr("fill", fill or "none")
    if stroke:
        out += _attr("stroke", stroke) + _attr("stroke-width", _num(width))
    return out


def _tags(item, legal: Collection[int] | None) -> str:
    action = getattr(item, "action", None)
    if action is None:
        return ""
    out = _attr("data-action", int(action))
    if legal is not None and int(action) in legal:
        out += _attr("class", "legal")
    return out


def _item(item, legal: Collection[int] | None) -> str:
    tags = _tags(item, legal)
    if isinstance(item, Rect):
        shape = (f'<rect x="{_num(item.x)}" y="{_num(item.y)}" width="{_num(max(item.w, 0))}" '
                 f'height="{_num(max(item.h, 0))}"')
        if item.radius > 0:
            shape += f' rx="{_num(item.radius)}"'
        shape += _paint(item.fill, item.stroke, item.width) + tags
        name = "rect"
    elif isinstance(item, Circle):
        shape = f'<circle cx="{_num(item.cx)}" cy="{_num(item.cy)}" r="{_num(item.r)}"'
        shape += _paint(item.fill, item.stroke, item.width) + tags
        name = "circle"
    elif isinstance(item, Line):
        shape = (f'<line x1="{_num(item.x1)}" y1="{_num(item.y1)}" x2="{_num(item.x2)}" y2="{_num(item.y2)}"'
                 + _attr("stroke", item.stroke) + _attr("stroke-width", _num(item.width))
                 + ' stroke-linecap="round"')
        if item.dash:
            shape += _attr("stroke-dasharray", " ".join(_num(d) for d in item.dash))
        shape += tags
        name = "line"
    elif isinstance(item, Polygon):
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in item.points)
        shape = f'<polygon points="{points}"' + _paint(item.fill, item.stroke, item.width) + tags
        name = "polygon"
    elif isinstance(item, Text):
        shape = (f'<text x="{_num(item.x)}" y="{_num(item.y)}" font-size="{_num(item.size)}"'
                 + _attr("fill", item.fill) + _attr("text-anchor", item.anchor)
                 + (' font-weight="bold"' if item.bold else "") + tags)
        title = f"<title>{escape(item.title, quote=False)}</title>" if item.title else ""
        return f"{shape}>{title}{escape(item.text, quote=False)}</text>"
    else:
        raise TypeError(f"not a drawing item: {item!r}")
    if item.title:
        return f"{shape}><title>{escape(item.title, quote=False)}</title></{name}>"
    return shape + "/>"


MARK = ' fill="none" stroke="#2f8cff" stroke-width="3"'


def _mark(item) -> str:
    """An outline drawn over a legal item, above everything (the board may draw over the item)."""
    if isinstance(item, Rect):
        return (f'<rect x="{_num(item.x - 2)}" y="{_num(item.y - 2)}" width="{_num(item.w + 4)}" '
                f'height="{_num(item.h + 4)}" rx="{_num(item.radius + 2)}"{MARK}/>')
    if isinstance(item, Circle):
        return f'<circle cx="{_num(item.cx)}" cy="{_num(item.cy)}" r="{_num(item.r + 2)}"{MARK}/>'
    if isinstance(item, Polygon):
        return '<polygon points="' + " ".join(f"{_num(x)},{_num(y)}" for x, y in item.points) + f'"{MARK}/>'
    return ""


def scene_to_svg(scene: Scene, legal: Collection[int] | None = None) -> str:
    """`scene` as one `<svg>` element, scaled to its container (viewBox in scene units). With
    `legal` (action indices), the items of those actions get the class `legal` and an outline in
    a last group, `marks`."""
    legal = None if legal is None else frozenset(int(a) for a in legal)
    w, h = _num(scene.width), _num(scene.height)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
        f'font-family="DejaVu Sans, Verdana, sans-serif" role="img">',
        f'<rect x="0" y="0" width="{w}" height="{h}"{_attr("fill", scene.background)}/>',
    ]
    parts.extend(_item(item, legal) for item in scene.items)
    if legal:
        marks = [m for item in scene.items if getattr(item, "action", None) in legal if (m := _mark(item))]
        if marks:
            parts.append('<g class="marks" pointer-events="none">' + "".join(marks) + "</g>")
    parts.append("</svg>")
    return "\n".join(parts)
