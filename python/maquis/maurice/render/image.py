"""The picture of a position: a ``Scene`` (``maquis.common.drawing``) of the table — terrain
colours, hills, walls, every base with its front edge, DISR pips, smoke, the CinCs — with a panel
of the morale, the cards (the hands of the side shown) and the round; drawn by Pillow
(``render_rgb``) or as SVG by the web page. Bases, cells and cards carry the actions they stand for.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...common.drawing import Scene, Sketch, scene_pixels, wrap
from .view import (
    DECK_NOTE,
    HEIGHT,
    SIDES,
    TERRAIN_CHARS,
    UNIT_LETTERS,
    WIDTH,
    action,
    awaiting,
    card_spans,
    hand_counts,
    outcome_line,
    pending_words,
    round_words,
    side_view,
    walls,
)

BASE_WIDTH, BASE_HEIGHT = 960, 720
CELL = 16
X0, Y0 = 28, 40  # the table's top-left corner (row 29, red's edge, is on top)
PANEL_X = X0 + WIDTH * CELL + 14
STRIP_Y = Y0 + HEIGHT * CELL + 26
TEXT_SIZE = 10

BACKGROUND = (242, 238, 226)
INK = (40, 40, 46)
DIM = (105, 105, 112)
TERRAIN = {"open": (222, 228, 190), "woods": (112, 150, 92), "rough": (190, 168, 124),
           "marsh": (160, 196, 184), "lake": (92, 142, 200)}
HILL = (196, 160, 96)
HILL_EDGE = (120, 88, 48)
WALL = (92, 62, 36)
SIDE_COLORS = {"blue": (46, 92, 176), "red": (184, 52, 52)}
FRONT = (250, 246, 230)
PIP = (255, 214, 64)
SMOKE = (226, 226, 226)
HIGHLIGHT = (236, 170, 30)
BANNER = {"blue": SIDE_COLORS["blue"], "red": SIDE_COLORS["red"], "draw": (90, 90, 100)}
STEP = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}


def _corner(x: float, y: float) -> tuple[float, float]:
    """The picture's top-left corner of cell (x, y)."""
    return X0 + x * CELL, Y0 + (HEIGHT - 1 - y) * CELL


def _shade(color, k: float):
    return tuple(c * k for c in color)


def _terrain(c: Sketch, sd: Mapping, cell_actions: bool) -> None:
    terrain = sd.get("terrain") or {}
    rows = terrain.get("rows") or ["." * WIDTH] * HEIGHT
    hills = terrain.get("hills") or ["0" * WIDTH] * HEIGHT

    def look(x, y):
        kind = TERRAIN_CHARS.get(rows[y][x], "open")
        return kind, hills[y][x] == "1"

    for y in range(HEIGHT):
        x = 0
        while x < WIDTH:
            kind, hill = look(x, y)
            # One rect per run of like cells, unless each cell is a choice (a CinC's move).
            end = x + 1
            while not cell_actions and end < WIDTH and look(end, y) == (kind, hill):
                end += 1
            color = TERRAIN[kind]
            if hill:  # higher ground: the colour drawn towards a tan
                color = tuple(0.55 * a + 0.45 * b for a, b in zip(color, HILL))
            px, py = _corner(x, y)
            where = f"({x},{y})" if end == x + 1 else f"({x}-{end - 1},{y})"
            title = f"{where} {kind}" + (", hill" if hill else "")
            tags = {"action": action(f"cell:{x}:{y}"), "title": title} if cell_actions else {"title": title}
            c.rect(px, py, px + (end - x) * CELL, py + CELL, color, **tags)
            x = end
    for y in range(HEIGHT):
        for x in range(WIDTH):
            kind, _ = look(x, y)
            color = TERRAIN[kind]
            px, py = _corner(x, y)
            if kind == "woods":
                c.disc(px + CELL / 2, py + CELL / 2, CELL * 0.28, _shade(color, 0.8))
            elif kind == "marsh":
                c.line(px + 3, py + CELL / 2, px + CELL - 3, py + CELL / 2, _shade(color, 0.75), 1.2)
            elif kind == "rough":
                c.disc(px + 5, py + 6, 1.6, _shade(color, 0.7))
                c.disc(px + 11, py + 11, 1.6, _shade(color, 0.7))
    # Hill outlines: an edge between a hill cell and lower ground.
    for y in range(HEIGHT):
        for x in range(WIDTH):
            if hills[y][x] != "1":
                continue
            px, py = _corner(x, y)
            if y + 1 >= HEIGHT or hills[y + 1][x] != "1":
                c.line(px, py, px + CELL, py, HILL_EDGE, 1.4)
            if y == 0 or hills[y - 1][x] != "1":
                c.line(px, py + CELL, px + CELL, py + CELL, HILL_EDGE, 1.4)
            if x == 0 or hills[y][x - 1] != "1":
                c.line(px, py, px, py + CELL, HILL_EDGE, 1.4)
            if x + 1 >= WIDTH or hills[y][x + 1] != "1":
                c.line(px + CELL, py, px + CELL, py + CELL, HILL_EDGE, 1.4)
    # A faint grid every fifth cell, to count by.
    for x in range(0, WIDTH + 1, 5):
        c.line(X0 + x * CELL, Y0, X0 + x * CELL, Y0 + HEIGHT * CELL, (190, 190, 170), 0.5)
    for y in range(0, HEIGHT + 1, 5):
        c.line(X0, Y0 + HEIGHT * CELL - y * CELL, X0 + WIDTH * CELL, Y0 + HEIGHT * CELL - y * CELL, (190, 190, 170), 0.5)
    north, east = walls(sd)
    for x, y in north:
        px, py = _corner(x, y)
        c.line(px, py, px + CELL, py, WALL, 3.2)
    for x, y in east:
        px, py = _corner(x, y)
        c.line(px + CELL, py, px + CELL, py + CELL, WALL, 3.2)
    c.frame(X0, Y0, X0 + WIDTH * CELL, Y0 + HEIGHT * CELL, INK, 1.5)
    for x in range(0, WIDTH, 5):
        c.text(X0 + (x + 0.5) * CELL, Y0 + HEIGHT * CELL + 6, str(x), DIM, 0.9, align="center")
    for y in range(0, HEIGHT, 5):
        _, py = _corner(0, y)
        c.text(X0 - 4, py + CELL / 2, str(y), DIM, 0.9, align="right", middle=True)


def _unit(c: Sketch, side: str, u: Mapping, tag: bool, moving: bool) -> None:
    cells = [tuple(xy) for xy in u["cells"]]
    dx, dy = STEP[u["facing"]]
    color = SIDE_COLORS[side]
    title = (f"{side} {u['id']}: {u['type']} {u['formation']} facing {u['facing']}, DISR {u['disr']}"
             + (", smoke" if u.get("smoke") else "") + (", fired" if u.get("fired") else ""))
    tags = {"action": action(f"unit:{u['id']}") if tag else None, "title": title}
    if moving:
        xs = [x for x, _ in cells]
        ys = [y for _, y in cells]
        ax, ay = _corner(min(xs), max(ys))
        c.rect(ax - 3, ay - 3, ax + (max(xs) - min(xs) + 1) * CELL + 3, ay + (max(ys) - min(ys) + 1) * CELL + 3, HIGHLIGHT)
    letter = UNIT_LETTERS[u["type"]]
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    bx, by = _corner(min(xs), max(ys))
    c.rect(bx, by, bx + (max(xs) - min(xs) + 1) * CELL, by + (max(ys) - min(ys) + 1) * CELL, _shade(color, 0.45))
    for k, (x, y) in enumerate(cells):
        px, py = _corner(x, y)
        c.rect(px + 1, py + 1, px + CELL - 1, py + CELL - 1, color, _shade(color, 0.75), 0.8, **tags)
        if k < u["disr"]:  # one pip per DISR, in the bases left to right
            c.disc(px + CELL / 2, py + CELL / 2, 2.6, PIP, INK, 0.6)
        elif k == 0:  # the type in the front-left base, the id in the last one
            c.text(px + CELL / 2, py + CELL / 2, letter, FRONT, 0.85, align="center", middle=True, bold=True)
        elif k == len(cells) - 1:
            c.text(px + CELL / 2, py + CELL / 2, str(u["id"]), FRONT, 0.75, align="center", middle=True)
    # The front edge: the side of each base with no base of its own unit in front of it.
    for x, y in cells:
        if (x + dx, y + dy) in cells:
            continue
        px, py = _corner(x, y)
        edge = {
            "n": (px + 1, py + 1.5, px + CELL - 1, py + 1.5),
            "s": (px + 1, py + CELL - 1.5, px + CELL - 1, py + CELL - 1.5),
            "e": (px + CELL - 1.5, py + 1, px + CELL - 1.5, py + CELL - 1),
            "w": (px + 1.5, py + 1, px + 1.5, py + CELL - 1),
        }[u["facing"]]
        c.line(*edge, FRONT, 2.2)
        if u.get("smoke"):
            sx = px + CELL / 2 + dx * CELL * 0.62
            sy = py + CELL / 2 - dy * CELL * 0.62
            c.disc(sx, sy, 4.2, SMOKE, (170, 170, 170), 0.6)


def _cinc(c: Sketch, side: str, xy) -> None:
    x, y = xy
    px, py = _corner(x, y)
    cx, cy = px + CELL / 2, py + CELL / 2
    r = CELL * 0.62
    c.polygon(((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)), SIDE_COLORS[side], (255, 255, 255), 1.5,
              title=f"{side} CinC at ({x},{y})")
    c.text(cx, cy, "B" if side == "blue" else "R", (255, 255, 255), 0.8, align="center", middle=True, bold=True)


def _marks(c: Sketch, sd: Mapping) -> None:
    """What the pending decision points at: aim targets, displacement cells."""
    p = sd.get("pending") or {}
    if p.get("kind") == "aim":
        for key in ("left", "right"):
            px, py = _corner(*p[key])
            c.frame(px - 1, py - 1, px + CELL + 1, py + CELL + 1, HIGHLIGHT, 2.5)
            c.text(px + CELL / 2, py - 4, key[0].upper(), HIGHLIGHT, 0.9, align="center")
    elif p.get("kind") == "displace":
        for x, y in p.get("cells") or ():
            px, py = _corner(x, y)
            c.frame(px + 2, py + 2, px + CELL - 2, py + CELL - 2, HIGHLIGHT, 1.5, action=action(f"cell:{x}:{y}"))


def _panel(c: Sketch, sd: Mapping, side: str | None) -> None:
    x0, x1 = PANEL_X, BASE_WIDTH - 8
    y = Y0
    morale = sd.get("morale") or {}
    hands = sd.get("hands") or {}
    c.text(x0, y, "ARMY MORALE", INK, 1.1, bold=True)
    y += 18
    for s in SIDES:
        m = morale.get(s) or {"left": 0, "start": 1}
        c.text(x0, y, s, SIDE_COLORS[s], 1, bold=True)
        w = (x1 - x0 - 40) / max(1, m["start"])
        for k in range(m["start"]):
            fill = SIDE_COLORS[s] if k < m["left"] else (215, 212, 200)
            c.rect(x0 + 36 + k * w, y - 1, x0 + 36 + (k + 1) * w - 2, y + 9, fill)
        c.text(x1, y + 13, f"{m['left']}/{m['start']}", DIM, 0.85, align="right")
        y += 26
    deck = len(sd.get("deck") or ())
    c.text(x0, y, f"deck {deck}  discard {len(sd.get('discard') or ())}  removed {len(sd.get('removed') or ())}", INK, 1)
    y += 18
    spans = card_spans()
    order = [side] if side else list(SIDES)
    if side:
        order.append("red" if side == "blue" else "blue")
    for s in order:
        cards = hands.get(s) or []
        hidden = bool(cards) and all(card is None for card in cards)
        c.text(x0, y, f"{s.upper()} HAND ({len(cards)})" + ("  hidden" if hidden else ""), SIDE_COLORS[s], 1, bold=True)
        y += 15
        if hidden or not cards:
            y += 4
            continue
        decider = sd.get("to_move") == s
        new = list((sd.get("drawn_this_round") or {}).get(s) or ())
        for card, n in hand_counts(cards):
            if y > STRIP_Y - 40:
                c.text(x0, y, "...", DIM, 1)
                y += 13
                break
            fresh = min(n, new.count(card))
            label = f"{card}" + (f" x{n}" if n > 1 else "") + (" (new)" if fresh else "")
            tags = {"action": action(f"card:{card}") if decider else None, "title": f"{card}, span {spans.get(card)}"}
            c.rect(x0, y - 2, x1, y + 12, (252, 250, 244), _shade(SIDE_COLORS[s], 0.9), 0.8, radius=2, **tags)
            c.text(x0 + 4, y, label, INK, 0.9, fit=x1 - x0 - 34)
            c.text(x1 - 4, y, str(spans.get(card, "")), DIM, 0.9, align="right")
            y += 16
        y += 6


def _strip(c: Sketch, sd: Mapping) -> None:
    y = STRIP_Y
    words = round_words(sd)
    pending = pending_words(sd)
    lines = wrap("ROUND: " + ("; ".join(words) if words else "nothing played yet"), 150)
    if pending:
        lines += wrap(f"PENDING {pending}", 150)
    dice = (sd.get("dice_log") or [])[-4:]
    if dice:
        lines.append("last dice: " + "; ".join(f"{d['event']} {' '.join(map(str, d['dice']))}" for d in dice))
    broken = [f"{s} {u['id']} ({u['type']})" for s in SIDES for u in (sd.get("units") or {}).get(s) or ()
              if not u.get("on_table", True)]
    if broken:
        lines += wrap("broken: " + ", ".join(broken), 150)
    room = int((BASE_HEIGHT - 22 - y) // 14)
    for line in lines[:room]:
        c.text(X0, y, line, INK, 1, fit=BASE_WIDTH - X0 - 8)
        y += 14
    c.text(X0, BASE_HEIGHT - 14, DECK_NOTE + "; capitals of the map: I inf, C cav, A art; yellow pips DISR",
           DIM, 0.85, fit=BASE_WIDTH - X0 - 8)


def _banner(c: Sketch, sd: Mapping) -> None:
    text = outcome_line(sd) or ""
    cx, cy = X0 + WIDTH * CELL / 2, Y0 + HEIGHT * CELL / 2
    w = min(c.text_width(text, 1.8) + 40, WIDTH * CELL - 20)
    c.rect(cx - w / 2, cy - 24, cx + w / 2, cy + 24, BANNER.get(sd.get("outcome"), INK))
    c.frame(cx - w / 2, cy - 24, cx + w / 2, cy + 24, (255, 255, 255), 2.5)
    c.text(cx, cy, text, (255, 255, 255), 1.8, align="center", middle=True, fit=w - 30)


def scene(sd: Mapping, side: str | None = None) -> Scene:
    """The position as a Scene, 960 x 720: the table, the panel of morale and cards, the round.
    ``side`` draws only what that side may see (``side_view``: its own hand); None draws the
    state_dict as it is."""
    if side is not None:
        sd = side_view(sd, side)
    shown = side or sd.get("viewer")
    c = Sketch(BASE_WIDTH, BASE_HEIGHT, BACKGROUND, TEXT_SIZE)
    title = f"MAURICE LITE  {sd.get('scenario')}  round {sd.get('round')}, {sd.get('active')} active"
    c.text(X0, 12, title, INK, 1.4, bold=True)
    status = f"{sd.get('phase')}: {awaiting(sd)}" + (f"  (seen by {shown})" if shown else "")
    c.text(BASE_WIDTH - 8, 14, status, INK, 1.1, align="right", fit=BASE_WIDTH - 380)
    phase = sd.get("phase")
    _terrain(c, sd, phase in ("cinc_move", "displace"))
    to_move = sd.get("to_move")
    moving = ((sd.get("round_state") or {}).get("moving") or {}).get("id")
    for s in SIDES:
        for u in (sd.get("units") or {}).get(s) or ():
            if u.get("on_table", True):
                _unit(c, s, u, tag=s == to_move, moving=s == sd.get("active") and u["id"] == moving)
    for s, xy in (sd.get("cinc") or {}).items():
        _cinc(c, s, xy)
    _marks(c, sd)
    _panel(c, sd, shown)
    _strip(c, sd)
    if sd.get("outcome") is not None:
        _banner(c, sd)
    return c.scene()


def render_rgb(sd: Mapping, width: int = BASE_WIDTH, side: str | None = None) -> np.ndarray:
    """The picture of ``scene(sd, side)``, shape (round(width * 3 / 4), width, 3), dtype uint8."""
    return scene_pixels(scene(sd, side), width)
