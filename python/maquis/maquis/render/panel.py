"""The side panel: day, morale and soldier tracks, resources, workers, patrols and the phase."""

from __future__ import annotations

from collections.abc import Mapping

from ..tables import END_DAY, MAX_MORALE, MAX_SOLDIERS, RESOURCES, TOKENS_PER_RESOURCE
from ...common.drawing import Sketch, wrap
from .labels import LABELS, RESOURCE_NAMES, SHORT
from .pieces import draw_stuck
from .position import awaiting, card_locs, day_name, last_day, min_patrols, morale_days, show_pass
from .style import (
    BACKGROUND,
    CELL,
    HEADING,
    OUTCOME_BANNERS,
    PANEL,
    PANEL_DIM,
    PANEL_TEXT,
    PAWNS,
    RESOURCE_COLORS,
)


def _track(c: Sketch, x, y, values, current, names, loss=(), last=None, colors=None) -> None:
    """Cells of a track, eight to a row; the current value filled, ``loss`` days in orange."""
    for i, v in enumerate(values):
        cx, cy = x + (i % 8) * 38, y + (i // 8) * 22
        beyond = last is not None and v > last
        fill = CELL if not beyond else (40, 43, 50)
        if v in loss and not beyond:
            fill = (150, 84, 24)
        ink = PANEL_DIM if beyond else PANEL_TEXT
        if v == current:
            fill, ink = (colors(v) if colors else HEADING), (20, 20, 20)
        c.rect(cx, cy, cx + 35, cy + 19, fill)
        c.text(cx + 17.5, cy + 10, names(v), ink, align="center", middle=True)


def _morale_color(v: int):
    return (230, 60, 50) if v <= 2 else (240, 200, 60) if v <= 4 else (90, 200, 100)


def draw_panel(c: Sketch, sd: Mapping) -> None:
    x0, x1 = PANEL
    day, morale, soldiers = sd.get("day", 0), sd.get("morale", 0), sd.get("soldiers", 0)
    c.text(x0, 8, "MAQUIS", HEADING, 2)
    c.text(x1, 12, str(sd.get("difficulty", "")).upper().replace("_", " "), PANEL_DIM, align="right")

    title = f"DAY {day_name(day)}" + (f"  PASS {sd.get('pass', 1)}" if show_pass(sd) else "")
    c.text(x0, 36, title, PANEL_TEXT, 2)
    note = "ORANGE: MORALE -1" + (f", ENDS ON {last_day(sd)}" if last_day(sd) != END_DAY else "")
    c.text(x1, 41, note, PANEL_DIM, align="right")
    _track(c, x0, 56, range(END_DAY + 1), day, day_name, morale_days(sd), last_day(sd))

    c.text(x0, 106, f"MORALE {morale}", PANEL_TEXT, 2)
    if min_patrols(morale):
        c.text(x1, 111, f"MIN PATROLS {min_patrols(morale)}", PANEL_DIM, align="right")
    _track(c, x0, 126, range(MAX_MORALE + 1), morale, lambda v: str(v) if v else "FAIL", colors=_morale_color)

    c.text(x0, 154, f"SOLDIERS {soldiers}", PANEL_TEXT, 2)
    c.text(x1, 159, f"MILICE LEFT {max(0, MAX_SOLDIERS - soldiers)}", PANEL_DIM, align="right")
    _track(c, x0, 174, range(MAX_SOLDIERS + 1), soldiers, str, colors=lambda v: (230, 70, 60))

    hand, supply = sd.get("hand", {}), sd.get("supply", {})
    c.text(x0, 204, "RESOURCES", PANEL_TEXT, 2)
    c.text(x1, 209, "HAND / SUPPLY", PANEL_DIM, align="right")
    for i, res in enumerate(RESOURCES):
        y = 224 + i * 15
        color = RESOURCE_COLORS[res]
        c.rect(x0, y, x0 + 10, y + 10, color)
        c.text(x0 + 15, y + 2, RESOURCE_NAMES[res], PANEL_TEXT)
        n_hand, n_supply = hand.get(res, 0), supply.get(res, 0)
        for k in range(TOKENS_PER_RESOURCE):
            tx, ty = x0 + 92 + k * 14, y + 5
            if k < n_hand:
                c.disc(tx, ty, 5.5, color)
            elif k < n_hand + n_supply:
                c.disc(tx, ty, 5.5, color)
                c.disc(tx, ty, 3.5, BACKGROUND)
            else:  # elsewhere: on a field or carried by a placed worker
                c.disc(tx, ty, 1.5, PANEL_DIM)
        c.text(x0 + 158, y + 2, f"HAND {n_hand}", PANEL_TEXT if n_hand else PANEL_DIM)
        c.text(x0 + 222, y + 2, f"SUPPLY {n_supply}", PANEL_DIM)

    workers = sd.get("workers", {})
    c.text(x0, 350, "WORKERS", PANEL_TEXT, 2)
    wx = x0 + 6
    kinds = (
        ("available", "AVAIL"),
        ("placed", "PLACED"),
        ("stuck", "STUCK"),
        ("recruitable", "RECRUIT"),
        ("gone", "GONE"),
    )
    for key, _ in kinds:
        for _ in range(int(workers.get(key, 0))):
            if key == "stuck":
                draw_stuck(c, wx, 378, 7)
            elif key == "recruitable":
                c.disc(wx, 378, 7.5, PANEL_DIM)
                c.disc(wx, 378, 6, BACKGROUND)
            elif key == "gone":
                c.line(wx - 5, 373, wx + 5, 383, (200, 60, 60), 2.5)
                c.line(wx - 5, 383, wx + 5, 373, (200, 60, 60), 2.5)
            else:
                c.disc(wx, 378, 7.5, PAWNS["worker"][0])
                if key == "placed":
                    c.disc(wx, 378, 3, (40, 92, 210))
            wx += 20
    counts = "  ".join(f"{label} {workers.get(key, 0)}" for key, label in kinds)
    c.text(x0, 392, counts, PANEL_DIM)

    discard = list(sd.get("patrol_discard", []))
    c.text(x0, 412, "PATROLS", PANEL_TEXT, 2)
    c.text(
        x1, 417, f"DECK {len(sd.get('patrol_deck', []))}  DISCARD {len(discard)}", PANEL_DIM, align="right"
    )
    info = f"SHOT TODAY: {'YES' if sd.get('shot_today') else 'NO'}"
    if sd.get("patrols_today") is not None:
        info = f"PATROLS TODAY: {sd['patrols_today']}   " + info
    c.text(x0, 434, info, PANEL_TEXT)
    y = 448
    for i, card in enumerate(discard[-10:]):  # ten cards at most, newest last
        newest = i == len(discard[-10:]) - 1
        line = f"#{card} " + " > ".join(SHORT.get(l, l) for l in card_locs(card))
        c.text(x0 + 6, y, line, PANEL_TEXT if newest else PANEL_DIM)
        y += 11
    if sd.get("peek") is not None:
        peek = sd["peek"]
        c.text(x0, y + 2, f"NEXT #{peek} " + " > ".join(SHORT.get(l, l) for l in card_locs(peek)), HEADING)
        c.text(x1, y + 2, "(MOLE)", PANEL_DIM, align="right")
    y = 576
    for a, b in sd.get("closed_roads", []):
        c.text(x0, y, f"CLOSED: {LABELS.get(a, (a,))[0]} - {LABELS.get(b, (b,))[0]}", (240, 90, 80))
        y -= 11

    c.rect(x0 - 4, 592, x1 + 4, 712, (44, 49, 60))
    over = sd.get("outcome") is not None
    c.text(x0 + 4, 600, "GAME OVER" if over else "PHASE", PANEL_DIM)
    phase = str(sd.get("outcome") if over else sd.get("phase", "?")).upper().replace("_", " ")
    c.text(
        x0 + 4, 614, phase, OUTCOME_BANNERS.get(sd.get("outcome"), (0, HEADING))[1] if over else HEADING, 3
    )
    for i, line in enumerate(wrap(awaiting(sd).upper().replace("_", " "), 49)[:4]):
        c.text(x0 + 4, 648 + 12 * i, line, PANEL_TEXT)
