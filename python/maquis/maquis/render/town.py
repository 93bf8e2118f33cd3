"""The town: roads, river and bridges, the locations with what stands on them, and the two mission
cards above it, at BOARD_LAYOUT.md's positions."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import numpy as np

from ..._core.maquis import ACTION_NAMES
from ..tables import ROADS, SAFE_LOCATIONS, SAFE_TILES, SLOTS
from ...common.drawing import Sketch, wrap
from .labels import LABELS, MISSION_TEXT, RESOURCE_SHORT, TILE_LABELS
from .layout import BOARD_ORDER, LAYOUT, RIVER
from .pieces import draw_badge, draw_fake_id, draw_pawn, draw_stuck
from .position import cell_at, mission_in, stars
from .style import (
    BOARD,
    BOX_FILL,
    BOX_FILLS,
    BOX_H,
    BOX_W,
    BRIDGE,
    CARD_H,
    CARD_TOP,
    CARD_W,
    CLOSED,
    CRATE,
    FAKE_ID,
    HEADING,
    HIGHLIGHT,
    INK,
    INK_DIM,
    PARCHMENT,
    ROAD,
    SAFE_BORDER,
    TILE_FILL,
    UNBUILT_FILL,
    WATER,
)


# location -> the action of placing a worker there (the box a page makes clickable).
PLACE_ACTIONS = {name.split(":")[1]: i for i, name in enumerate(ACTION_NAMES) if name.count(":") == 1 and name.startswith("place:")}


def _pos(loc: str) -> tuple[float, float]:
    """Centre of ``loc`` in base units (mission cards: centre of the card)."""
    x, y = LAYOUT[loc]
    bx0, by0, bx1, by1 = BOARD
    if loc in SLOTS:
        return bx0 + x * (bx1 - bx0) / 100, CARD_TOP + CARD_H / 2
    return bx0 + x * (bx1 - bx0) / 100, by0 + y * (by1 - by0) / 100


def _board_xy(p) -> tuple[float, float]:
    bx0, by0, bx1, by1 = BOARD
    return bx0 + p[0] * (bx1 - bx0) / 100, by0 + p[1] * (by1 - by0) / 100


def _road_ends(a: str, b: str):
    """Road end points: a mission road leaves from the bottom edge of its card."""
    (ax, ay), (bx, by) = _pos(a), _pos(b)
    if a in SLOTS:
        ay = CARD_TOP + CARD_H
    return ax, ay, bx, by


def _crossing(p0, p1, q0, q1):
    """Where segment p0-p1 crosses segment q0-q1, or None."""
    rx, ry, sx, sy = p1[0] - p0[0], p1[1] - p0[1], q1[0] - q0[0], q1[1] - q0[1]
    den = rx * sy - ry * sx
    if abs(den) < 1e-9:
        return None
    t = ((q0[0] - p0[0]) * sy - (q0[1] - p0[1]) * sx) / den
    v = ((q0[0] - p0[0]) * ry - (q0[1] - p0[1]) * rx) / den
    return (p0[0] + t * rx, p0[1] + t * ry) if 0 <= t <= 1 and 0 <= v <= 1 else None


def _is_closed(sd: Mapping, a: str, b: str) -> bool:
    return any(set(road) == {a, b} for road in sd.get("closed_roads", []))


def draw_town(c: Sketch, sd: Mapping) -> None:
    bx0, by0, bx1, by1 = BOARD
    c.rect(bx0, by0, bx1, by1, PARCHMENT)
    c.frame(bx0, by0, bx1, by1, (90, 76, 56), 2)
    river = [_board_xy(p) for p in RIVER]
    for p, q in itertools.pairwise(river):
        c.line(p[0], p[1], q[0], q[1], WATER, 16)
    crosses = []
    for a, b in ROADS:
        ax, ay, bx, by = _road_ends(a, b)
        crossings = [x for p, q in itertools.pairwise(river) if (x := _crossing((ax, ay), (bx, by), p, q))]
        for x, y in crossings:  # a bridge deck where the road crosses the river
            n = float(np.hypot(bx - ax, by - ay))
            ux, uy = (bx - ax) / n * 16, (by - ay) / n * 16
            c.line(x - ux, y - uy, x + ux, y + uy, BRIDGE, 12)
        if _is_closed(sd, a, b):
            c.line(ax, ay, bx, by, CLOSED, 4, dash=9)
            crosses.append(crossings[0] if crossings else ((ax + bx) / 2, (ay + by) / 2))
        else:
            c.line(ax, ay, bx, by, ROAD, 4)
    for loc in BOARD_ORDER:
        if loc not in SLOTS:
            draw_location(c, sd, loc)
    for x, y in crosses:
        for d in (-1, 1):
            c.line(x - 8, y - 8 * d, x + 8, y + 8 * d, (255, 255, 255), 7)
        for d in (-1, 1):
            c.line(x - 8, y - 8 * d, x + 8, y + 8 * d, CLOSED, 4)
    c.text(bx0 + 6, by1 - 13, "W WORKER  M MILICE  S SOLDIER   ORANGE FRAME: SAFE ACTION", INK_DIM)


def draw_location(c: Sketch, sd: Mapping, loc: str) -> None:
    cell = cell_at(sd, loc)
    cx, cy = _pos(loc)
    x0, y0, x1, y1 = cx - BOX_W / 2, cy - BOX_H / 2, cx + BOX_W / 2, cy + BOX_H / 2
    name, hint = LABELS[loc]
    fill = BOX_FILLS.get(loc, BOX_FILL)
    tile = cell.get("tile")
    safe = loc in SAFE_LOCATIONS
    if loc.startswith("spare_room"):
        fill = TILE_FILL if tile else UNBUILT_FILL
        if tile:
            name, hint = TILE_LABELS.get(tile, (str(tile).upper(), ""))
            safe = tile in SAFE_TILES
    c.rect(x0 + 2, y0 + 3, x1 + 2, y1 + 3, (150, 138, 110))  # drop shadow
    c.rect(x0, y0, x1, y1, fill, action=PLACE_ACTIONS.get(loc), title=f"{name}: {hint}" if hint else name)
    if sd.get("pending") == loc:
        c.frame(x0 - 4, y0 - 4, x1 + 4, y1 + 4, HIGHLIGHT, 4)
    c.frame(x0, y0, x1, y1, SAFE_BORDER if safe else (70, 60, 48), 3 if safe else 1)
    c.text(x0 + 5, y0 + 5, name, INK, fit=BOX_W - 10)
    c.text(x0 + 5, y0 + 15, hint, INK_DIM, fit=BOX_W - 10)

    pawn = cell.get("pawn")
    px, py = x1 - 16, y1 - 16
    if pawn:
        draw_pawn(c, px, py, pawn)
        if cell.get("fake_id"):
            draw_fake_id(c, px, py)
    badges = []
    for res, n in (cell.get("airdrop") or {}).items():
        if n:
            badges.append((f"{n} {RESOURCE_SHORT.get(res, res.upper())}", CRATE, (255, 255, 255)))
    if cell.get("aa_gun"):
        badges.append(("AA GUN", (70, 74, 84), (255, 255, 255)))
    if cell.get("tagged"):
        badges.append(("TAGGED", (240, 200, 30), INK))
    if cell.get("visited"):
        badges.append(("VISITED", (60, 150, 80), (255, 255, 255)))
    if sd.get("dark_lady") == loc:
        badges.append(("DARK LADY", (170, 30, 140), (255, 255, 255)))
    if cell.get("fake_id") and not pawn:
        badges.append(("FAKE ID", FAKE_ID, (255, 255, 255)))
    right = x1 - (34 if pawn else 4)
    bx, by = x0 + 5, y0 + 28
    for text, bg, ink in badges:
        w = c.text_width(text) + 4
        if bx + w > right and bx > x0 + 5:
            bx, by = x0 + 5, by + 12
        draw_badge(c, bx, by, text, bg, ink)
        bx += w + 3


def draw_card(c: Sketch, sd: Mapping, slot: str) -> None:
    m = mission_in(sd, slot)
    cell = cell_at(sd, slot)
    cx = _pos(slot)[0]
    x0, y0, x1, y1 = cx - CARD_W / 2, CARD_TOP, cx + CARD_W / 2, CARD_TOP + CARD_H
    failed, complete = bool(m and m.get("failed")), bool(m and m.get("complete"))
    fill = (222, 242, 214) if complete else (236, 214, 210) if failed else (250, 246, 234)
    title = LABELS[slot][0] + (f": {MISSION_TEXT.get(m.get('id'), (m.get('id'),))[0]}" if m else "")
    c.rect(x0, y0, x1, y1, fill, action=PLACE_ACTIONS.get(slot), title=title)
    c.frame(x0, y0, x1, y1, (20, 20, 20), 1)
    if sd.get("pending") == slot:
        c.frame(x0 - 3, y0 - 3, x1 + 3, y1 + 3, HIGHLIGHT, 3)
    c.rect(x0, y0, x1, y0 + 13, (70, 58, 46))
    c.text(x0 + 4, y0 + 3, LABELS[slot][0], (255, 255, 255))
    if m is None:
        c.text(cx, y0 + 40, "NO MISSION", INK_DIM, align="center")
        return
    title, goal = MISSION_TEXT.get(m.get("id"), (str(m.get("id")).replace("_", " "), ""))
    n_stars = stars(m.get("id"))
    if n_stars:
        c.text(x1 - 4, y0 + 3, "*" * n_stars, HEADING, 1.6, align="right", bold=True)
    for i, line in enumerate(wrap(title.upper(), 23)[:2]):
        c.text(x0 + 5, y0 + 18 + 10 * i, line, INK, fit=CARD_W - 10)
    c.text(x0 + 5, y0 + 40, goal, INK_DIM, fit=CARD_W - 10)

    boxes, done = int(m.get("boxes", 0)), int(m.get("boxes_done", 0))
    for i in range(boxes):
        bx = x0 + 5 + i * 15
        c.rect(bx, y0 + 54, bx + 13, y0 + 67, (40, 40, 40))
        c.rect(bx + 1.5, y0 + 55.5, bx + 11.5, y0 + 65.5, (60, 170, 70) if i < done else (255, 255, 255))
    c.text(x0 + 6 + boxes * 15, y0 + 57, f"{done}/{boxes}", INK)

    if failed:
        status, ink = "FAILED", (180, 30, 30)
    elif complete:
        status, ink = "COMPLETE", (30, 130, 50)
    else:
        status, ink = "IN PROGRESS", INK_DIM
    c.text(x0 + 5, y0 + 76, status, ink)
    if m.get("tier"):
        c.text(x0 + 5, y0 + 88, "MAJOR SUCCESS" if m["tier"] == "major" else "SUCCESS", ink)

    px, py = x1 - 16, y1 - 16
    if cell.get("pawn"):
        draw_pawn(c, px, py, cell["pawn"])
        if cell.get("fake_id"):
            draw_fake_id(c, px, py)
        px -= 26
    if cell.get("stuck_worker"):
        draw_stuck(c, px, py)
    if cell.get("aa_gun"):
        draw_badge(c, x1 - 44, y0 + 56, "AA GUN", (70, 74, 84))
