"""The picture: ``scene`` draws the five zones, the six-section skirmish table and the score panel
as one ``Scene`` (960 x 720 units, the same drawing the web page shows as SVG); ``render_rgb`` is
that scene through Pillow. Figures carry the action that activates them (or, when a hit awaits,
the action that takes it)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..._core import dday as _dday
from ...common.drawing import Scene, Sketch, scene_pixels, wrap
from .view import (
    SIDES,
    UNITS,
    ZONE_NAMES,
    ZONES,
    awaiting,
    faces,
    losses,
    outcome_line,
    side_view,
    train_of,
)

BASE_WIDTH, BASE_HEIGHT = 960, 720
TEXT_SIZE = 10.0
ACTIONS = {name: i for i, name in enumerate(_dday.ACTION_NAMES)}
BACKGROUND = (28, 31, 38)
CARD = (214, 203, 170)
CARD_HIDDEN = (120, 116, 104)
INK = (40, 32, 24)
INK_DIM = (100, 88, 72)
TEXT = (232, 232, 236)
DIM = (150, 152, 164)
HEADING = (250, 208, 90)
HIGHLIGHT = (255, 214, 0)
FIELD = (96, 118, 72)
TASK_FIELD = (150, 128, 64)
CELL = (58, 62, 72)
MARKER = (30, 30, 30)
UNIT_COLORS = {
    "resistance": (92, 190, 110),
    "squad": (206, 56, 48),
    "gendarme_1": (60, 104, 214),
    "gendarme_2": (96, 140, 236),
    "gendarme_3": (140, 176, 250),
}
ITEM_CHIPS = {  # fill, letter
    "squad": ((206, 56, 48), "S"),
    "goods": ((150, 100, 50), "G"),
    "passenger": ((60, 150, 150), "P"),
    "vip": ((200, 150, 20), "V"),
    "gendarme": ((60, 104, 214), "g"),
}
ANSWER_SIGNS = {"too_high": "<", "too_low": ">", "correct": "="}
BANNER = {"resistance": (40, 150, 60), "german": (190, 30, 30), "draw": (110, 110, 120)}

ZONE_Y0, ZONE_Y1 = 40, 178
TABLE_Y0, TABLE_Y1 = 208, 452
SECTION_X0, SECTION_W = 8, 157
PANEL_Y0 = 462


def _die(c: Sketch, x, y, value: int, size=22, fill=(246, 246, 240)) -> None:
    c.rect(x, y, x + size, y + size, fill)
    c.frame(x, y, x + size, y + size, INK, 1)
    q = size / 4
    pips = {
        1: [(2, 2)],
        2: [(1, 1), (3, 3)],
        3: [(1, 1), (2, 2), (3, 3)],
        4: [(1, 1), (3, 1), (1, 3), (3, 3)],
        5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
        6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)],
    }.get(int(value), [])
    for px, py in pips:
        c.disc(x + px * q, y + py * q, size / 11, INK)


def _zones(c: Sketch, sd: Mapping) -> None:
    alloc = sd.get("allocation") or {}
    values = sd.get("zone_values") or {}
    inter = sd.get("interrogation") or {}
    closed = set(inter.get("closed") or ())
    attacked = sd.get("attacked") or ()
    order = list(sd.get("order") or ())
    current = (sd.get("skirmish") or {}).get("zone")
    w = (BASE_WIDTH - 16 - 4 * 8) / 5
    for i, z in enumerate(ZONES):
        x0 = 8 + i * (w + 8)
        items = alloc.get(z)
        action = ACTIONS.get(f"first:{z}") if sd.get("phase") == "order" else None
        fill = CARD if items is not None else CARD_HIDDEN
        c.rect(x0, ZONE_Y0, x0 + w, ZONE_Y1, fill, action=action, title=ZONE_NAMES[z])
        if z in attacked:
            c.frame(x0, ZONE_Y0, x0 + w, ZONE_Y1, HIGHLIGHT if z == current else (230, 120, 30), 3)
        c.text(x0 + 8, ZONE_Y0 + 8, ZONE_NAMES[z].upper(), INK, 2)
        value = values.get(z)
        c.text(x0 + w - 8, ZONE_Y0 + 8, "?" if value is None else str(value), INK, 2, align="right")
        if items is None:
            c.text(x0 + w / 2, ZONE_Y0 + 52, "HIDDEN", INK_DIM, 2, align="center", middle=True)
        else:
            for k, item in enumerate(items):
                fill, letter = ITEM_CHIPS.get(item, ((128, 128, 128), "?"))
                cx = x0 + 18 + k * 34
                c.disc(cx, ZONE_Y0 + 52, 13, fill)
                c.text(cx, ZONE_Y0 + 52, letter, (255, 255, 255), 2, align="center", middle=True)
            train = train_of(items)
            c.text(x0 + 8, ZONE_Y0 + 74, f"train: {train or 'none'}", INK, 1)
        guesses = [f"{g['value']}{ANSWER_SIGNS.get(g['answer'], '?')}" for g in inter.get("log") or () if g["zone"] == z]
        c.text(x0 + 8, ZONE_Y0 + 90, "guesses: " + (" ".join(guesses) or "-"), INK, 1)
        tags = []
        if z in attacked:
            tags.append("ATTACKED")
        if z in order:
            tags.append("1ST" if order[0] == z else "2ND")
        if z in closed:
            tags.append("closed")
        c.text(x0 + 8, ZONE_Y0 + 112, " ".join(tags), (150, 40, 20), 1)


def _figure_action(sk: Mapping, f: Mapping) -> int | None:
    """The action a figure stands for: taking the hit when a shot at its section awaits the
    target's choice, else activating it."""
    pending = sk.get("pending") or {}
    if pending.get("kind") == "hit":
        name = f"hit:{f['unit']}:{f['state']}" if f["section"] == pending.get("to") else None
    else:
        name = f"activate:{f['unit']}:{f['section']}:{f['state']}"
    return ACTIONS.get(name) if name else None


def _token(c: Sketch, x, y, unit: str, state: str, acting: bool, action: int | None = None) -> None:
    if acting:
        c.disc(x, y, 13, HIGHLIGHT)
    color = UNIT_COLORS.get(unit, (200, 200, 200))
    title = f"{unit.replace('_', ' ')}, {state.replace('_', ' ')}"
    if state == "standing":
        c.disc(x, y, 9, color, action=action, title=title)
    else:  # in cover: a flat block
        c.rect(x - 10, y - 5, x + 10, y + 7, color, INK, 1, action=action, title=title)


def _marker(c: Sketch, x, y, side: str) -> None:
    color = UNIT_COLORS["resistance"] if side == "resistance" else UNIT_COLORS["squad"]
    c.disc(x, y, 9, MARKER)
    c.line(x - 6, y - 6, x + 6, y + 6, color, 2.5)
    c.line(x - 6, y + 6, x + 6, y - 6, color, 2.5)


def _table(c: Sketch, sd: Mapping) -> None:
    sk = sd.get("skirmish")
    if not sk:
        c.rect(8, TABLE_Y0 - 20, BASE_WIDTH - 8, TABLE_Y1, CELL)
        text = "the skirmishes start once the zones are chosen"
        c.text(BASE_WIDTH / 2, (TABLE_Y0 + TABLE_Y1) / 2, text, DIM, 2, align="center", middle=True)
        return
    idx = sd.get("skirmish_index")
    items = (sd.get("allocation") or {}).get(sk["zone"])
    head = (
        f"SKIRMISH {2 if idx is None else idx + 1}/2  {ZONE_NAMES[sk['zone']].upper()}  "
        f"turn {sk.get('turn_number')}: {sk.get('turn')}   train: {train_of(items) or 'none'}"
    )
    c.text(8, TABLE_Y0 - 18, head, HEADING, 2)
    figures = sk.get("figures") or ()
    acting = sk.get("acting")
    for n in range(1, 7):
        x0 = SECTION_X0 + (n - 1) * SECTION_W
        task = n == sk.get("task_section")
        c.rect(x0 + 1, TABLE_Y0, x0 + SECTION_W - 1, TABLE_Y1, TASK_FIELD if task else FIELD)
        c.text(x0 + 8, TABLE_Y0 + 6, str(n), TEXT, 2)
        if task:
            c.text(x0 + SECTION_W - 8, TABLE_Y0 + 6, "TASK", HIGHLIGHT, 2, align="right")
        here = [f for f in figures if f["section"] == n and f["state"] in ("standing", "in_cover", "casualty")]
        here.sort(key=lambda f: (f["state"] == "casualty", f["side"] != "resistance", UNITS.index(f["unit"]), f["state"], f["id"]))
        for k, f in enumerate(here):
            x = x0 + 18 + (k % 6) * 24
            y = TABLE_Y0 + 44 + (k // 6) * 30
            if f["state"] == "casualty":
                _marker(c, x, y, f["side"])
            else:
                _token(c, x, y, f["unit"], f["state"], f["id"] == acting, _figure_action(sk, f))
        fresh = sum(1 for f in figures if f["section"] == n and f["fresh"])
        if fresh:
            c.text(x0 + 8, TABLE_Y1 - 16, f"{fresh} fresh", TEXT, 1)
    pending = sk.get("pending") or {}
    if pending.get("kind") == "hit":  # the shot awaiting the target's choice: a dashed line of fire
        x_from = SECTION_X0 + (pending["from"] - 0.5) * SECTION_W
        x_to = SECTION_X0 + (pending["to"] - 0.5) * SECTION_W
        y = TABLE_Y1 - 40
        c.line(x_from, y, x_to, y, HIGHLIGHT, 3, dash=10)
        c.disc(x_to, y, 7, HIGHLIGHT)
        c.text((x_from + x_to) / 2, y - 16, "HIT", HIGHLIGHT, 2, align="center")
    # the legend under the table
    x = 8
    for unit in UNITS:
        if any(f["unit"] == unit for f in figures):
            c.disc(x + 6, TABLE_Y1 + 8, 5, UNIT_COLORS[unit])
            x += 14 + c.text(x + 14, TABLE_Y1 + 4, unit, DIM, 1) + 10
    c.text(x, TABLE_Y1 + 4, "disc standing, block in cover, X casualty, ring acting; guess 6< too high, 6> too low", DIM, 1)


def _panel(c: Sketch, sd: Mapping) -> None:
    sk = sd.get("skirmish") or {}
    y = PANEL_Y0 + 14
    c.rect(8, PANEL_Y0 + 6, 468, BASE_HEIGHT - 8, CELL)
    if sk:
        clock = sk.get("clock", 0)
        c.text(18, y, f"CLOCK {clock}", HEADING, 2)
        c.rect(150, y + 2, 450, y + 12, (40, 42, 50))
        c.rect(150, y + 2, 150 + 300 * max(clock, 0) / 30, y + 12, HIGHLIGHT)
        y += 26
        pools = sk.get("pools") or {}
        text = "  ".join(f"{k} {v}" for k, v in pools.items()) or "none rolled"
        c.text(18, y, f"AP pools: {text}", TEXT, 1)
        y += 18
        task = sk.get("task") or {}
        for side in SIDES:
            c.text(18, y + 6, side, TEXT, 1)
            held = set(task.get(side) or ())
            for face in range(1, 7):
                if face in held:
                    _die(c, 110 + (face - 1) * 26, y, face, 20)
                else:
                    c.frame(110 + (face - 1) * 26, y, 130 + (face - 1) * 26, y + 20, DIM, 1)
            y += 26
        c.text(18, y, f"task rolled this turn: {'yes' if sk.get('task_rolled') else 'no'}", DIM, 1)
        y += 16
        lost = losses(sk.get("figures") or ())
        for side in SIDES:
            r = lost[side]
            c.text(
                18, y,
                f"{side}: {r['fighting']}/{r['total']} fighting, {r['casualty']} down, {r['killed']} killed, "
                f"{r['ran_away']} ran, {r['evacuated']} evac",
                TEXT, 1,
            )
            y += 13
        pending = sk.get("pending")
        if pending and pending.get("dice"):
            label = pending["kind"] + (f" {pending.get('line')}" if pending.get("line") else "")
            c.text(18, y + 8, f"PENDING {label}:", HEADING, 1)
            x = 30 + c.text_width(f"PENDING {label}:", 1)
            for d in pending["dice"]:
                _die(c, x, y, d, 22)
                x += 28
            y += 28
        elif pending:
            what = f"hit {pending['from']}->{pending['to']}" if pending["kind"] == "hit" else (
                f"{pending.get('remaining')} flee from {pending.get('section')}")
            c.text(18, y + 4, f"PENDING {what}", HEADING, 1)
            y += 18
    inter = sd.get("interrogation") or {}
    log = inter.get("log") or ()
    text = "; ".join(f"{ZONE_NAMES[g['zone']]} {g['value']} {g['answer'].replace('_', ' ')}" for g in log)
    left = f"{inter.get('guesses_left', 0)} guesses left" + (", stopped" if inter.get("stopped") else "")
    lines = wrap(f"Interrogation ({left}): {text or 'no guess yet'}", 72)
    for ln in lines[-max(1, (BASE_HEIGHT - 12 - y) // 12) :]:
        if y > BASE_HEIGHT - 20:
            break
        c.text(18, y, ln, DIM, 1)
        y += 12


def _scores(c: Sketch, sd: Mapping) -> None:
    x0 = 478
    c.rect(x0, PANEL_Y0 + 6, BASE_WIDTH - 8, BASE_HEIGHT - 8, CELL)
    vp = sd.get("vp") or {}
    c.text(x0 + 10, PANEL_Y0 + 14, f"VP  resistance {vp.get('resistance', 0)}  german {vp.get('german', 0)}", HEADING, 2)
    y = PANEL_Y0 + 38
    for i, r in enumerate(sd.get("records") or (), 1):
        res, ger = r["resistance"], r["german"]
        t = r.get("task") or {}
        c.text(x0 + 10, y, f"{i}. {ZONE_NAMES[r['zone']]}: completed by {r.get('completed') or 'nobody'}", TEXT, 1)
        c.text(
            x0 + 22, y + 12,
            f"R {faces(t.get('resistance'))} {res['size']} fig {res['killed']}k {res['ran_away']}r {res['evacuated']}e"
            f" | G {faces(t.get('german'))} {ger['figures']} fig {ger['killed']}k {ger['ran_away']}r {ger['evacuated']}e",
            DIM, 1,
        )
        y += 28
    lines = list(vp.get("lines") or ())
    room = int((BASE_HEIGHT - 14 - y) // 12)
    if len(lines) <= room:  # one column, with the dice
        for ln in lines:
            dice = ln.get("dice")
            extra = f" {dice}" + ("r" if ln.get("rerolled") else "") if dice else ""
            zone = ZONE_NAMES.get(ln.get("zone"), str(ln.get("zone")))
            for dx, cell in ((10, zone), (80, ln["side"]), (160, ln["line"])):
                c.text(x0 + dx, y, cell, TEXT, 1)
            c.text(x0 + 290, y, str(ln["points"]), TEXT, 1, align="right")
            c.text(x0 + 296, y, extra.strip(), TEXT, 1)
            y += 12
        return
    # many lines (up to 16 at the end of a game): two columns, points only
    for k, ln in enumerate(lines[: 2 * room]):
        zone = ZONE_NAMES.get(ln.get("zone"), str(ln.get("zone")))
        col, row = divmod(k, room)
        x, yy = x0 + 10 + col * 234, y + row * 12
        c.text(x, yy, zone, TEXT, 1, fit=62)
        c.text(x + 66, yy, ln["side"][0].upper(), TEXT, 1)
        c.text(x + 80, yy, ln["line"], TEXT, 1, fit=110)
        c.text(x + 214, yy, str(ln["points"]), TEXT, 1, align="right")


def _banner(c: Sketch, sd: Mapping) -> None:
    text = outcome_line(sd)
    color = BANNER.get(sd["outcome"], (110, 110, 120))
    cx, cy = BASE_WIDTH / 2, (TABLE_Y0 + TABLE_Y1) / 2
    w = c.text_width(text, 4) + 60
    c.rect(cx - w / 2, cy - 34, cx + w / 2, cy + 34, color)
    c.frame(cx - w / 2, cy - 34, cx + w / 2, cy + 34, (255, 255, 255), 3)
    c.text(cx, cy, text, (255, 255, 255), 4, align="center", middle=True)


def scene(sd: Mapping, side: str | None = None) -> Scene:
    """The position as a Scene: the five zones with their items (or HIDDEN), guesses and marks;
    the skirmish's six sections with every figure, casualty marker and the task section; the
    clock, pools, task sets and pending dice; the records and VP lines. ``side`` draws only what
    that side may see (``side_view``); None draws the state_dict as it is."""
    if side is not None:
        sd = side_view(sd, side)
    c = Sketch(BASE_WIDTH, BASE_HEIGHT, BACKGROUND, TEXT_SIZE)
    c.text(8, 10, "D-DAY 1944", HEADING, 2)
    status = f"phase {sd.get('phase')}: {awaiting(sd)}"
    if sd.get("viewer"):
        status += f" (seen by {sd['viewer']})"
    c.text(BASE_WIDTH - 8, 12, status, TEXT, 1, align="right")
    _zones(c, sd)
    _table(c, sd)
    _panel(c, sd)
    _scores(c, sd)
    if sd.get("outcome") is not None:
        _banner(c, sd)
    return c.scene()


def render_rgb(sd: Mapping, width: int = 960) -> np.ndarray:
    """The picture of ``scene(sd)``, shape (round(width * 3 / 4), width, 3), dtype uint8."""
    return scene_pixels(scene(sd), width)
