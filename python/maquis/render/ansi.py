"""The text board (``render_ansi``): tracks, missions, every location, resources and patrols."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..tables import END_DAY, MAX_MORALE, MAX_SOLDIERS, RESOURCES
from .layout import BOARD_ORDER
from .position import (
    awaiting,
    card_locs,
    cell_at,
    day_name,
    last_day,
    min_patrols,
    mission_status,
    morale_days,
    show_pass,
    stars,
)

_ANSI = {
    "head": "1",
    "worker": "1",
    "milice": "34",
    "soldier": "31",
    "good": "32",
    "bad": "31",
    "mark": "33",
    "dim": "2",
}


def render_ansi(sd: Mapping, color: bool = False) -> str:
    """A plain-text board of the position: tracks, missions, every location, resources, patrols.

    Deterministic and plain ASCII; ``color=True`` adds ANSI colour codes (pawns, headings, results).
    """

    def paint(text: str, style: str) -> str:
        return f"\x1b[{_ANSI[style]}m{text}\x1b[0m" if color and text else text

    def track(values: Iterable, current, names=str, marked=()) -> str:
        cells = []
        for v in values:
            name = names(v) + ("!" if v in marked else "")
            cells.append(paint(f"[{name}]", "mark") if v == current else name)
        return " ".join(cells)

    out = []
    day, morale, soldiers = sd.get("day", 0), sd.get("morale", 0), sd.get("soldiers", 0)
    head = f"MAQUIS  {sd.get('difficulty', '?')}  day {day_name(day)}"
    if show_pass(sd):
        head += f" (pass {sd.get('pass', 1)})"
    out.append(paint(head + f"  phase {sd.get('phase', '?')}", "head"))
    out.append(f"awaiting: {awaiting(sd)}")
    if sd.get("outcome") is not None:
        win = sd["outcome"] in ("win", "major_win")
        out.append(paint(f"GAME OVER: {sd['outcome']}", "good" if win else "bad"))

    last = last_day(sd)
    days = track(range(last + 1), day, day_name, morale_days(sd))
    ending = "" if last == END_DAY else f", ends on day {last}"
    out.append(f"day       {days}   (! morale -1{ending})")
    least = min_patrols(morale)
    patrols = f"   min patrols {least}" if least else ""
    out.append(
        f"morale    {track(range(MAX_MORALE + 1), morale, lambda v: str(v) if v else 'FAIL')}{patrols}"
    )
    soldier_track = track(range(MAX_SOLDIERS + 1), soldiers)
    out.append(f"soldiers  {soldier_track}   milice left {max(0, MAX_SOLDIERS - soldiers)}")

    out.append(paint("missions", "head"))
    for m in sorted(sd.get("missions", ()), key=lambda m: str(m.get("slot"))):
        n_stars = stars(m.get("id"))
        name = f"{m.get('id')} ({n_stars}*)" if n_stars is not None else str(m.get("id"))
        status = mission_status(m)
        style = "bad" if m.get("failed") else "good" if m.get("complete") else "dim"
        boxes = f"boxes {m.get('boxes_done', 0)}/{m.get('boxes', 0)}"
        out.append(f"  {m.get('slot', '?'):<10} {name:<32} {boxes:<10} {paint(status, style)}")

    out.append(paint("board", "head"))
    for loc in BOARD_ORDER:
        cell = cell_at(sd, loc)
        pawn = cell.get("pawn")
        text = pawn or "-"
        if pawn and cell.get("fake_id"):
            text += "+fake_id"
        extras = []
        if cell.get("stuck_worker"):
            extras.append("stuck worker")
        if cell.get("fake_id") and not pawn:
            extras.append("fake_id")
        if cell.get("tile"):
            extras.append(f"tile {cell['tile']}")
        drop = ", ".join(f"{n} {r}" for r, n in (cell.get("airdrop") or {}).items() if n)
        if drop:
            extras.append(f"airdrop {drop}")
        extras += [flag for flag in ("aa_gun", "tagged", "visited") if cell.get(flag)]
        if sd.get("dark_lady") == loc:
            extras.append(paint("DARK LADY", "mark"))
        if sd.get("pending") == loc:
            extras.append(paint("<- route check pending", "mark"))
        line = f"  {loc:<14} {paint(text, pawn) if pawn else text}{' ' * (16 - len(text))} "
        out.append((line + ", ".join(extras)).rstrip())

    hand, supply = sd.get("hand", {}), sd.get("supply", {})
    widths = [max(len(r), 2) for r in RESOURCES]
    out.append(paint("resources ", "head") + " ".join(f"{r:>{w}}" for r, w in zip(RESOURCES, widths)))
    out.append("  hand    " + " ".join(f"{hand.get(r, 0):>{w}}" for r, w in zip(RESOURCES, widths)))
    out.append("  supply  " + " ".join(f"{supply.get(r, 0):>{w}}" for r, w in zip(RESOURCES, widths)))

    workers = sd.get("workers", {})
    counts = ", ".join(
        f"{k} {workers.get(k, 0)}" for k in ("available", "placed", "stuck", "recruitable", "gone")
    )
    out.append(paint("workers", "head") + f"   {counts}")

    discard = sd.get("patrol_discard", [])
    info = f"deck {len(sd.get('patrol_deck', []))} (order hidden), discard {len(discard)}"
    if sd.get("patrols_today") is not None:
        info += f", patrols today {sd['patrols_today']}"
    info += f", shot today {'yes' if sd.get('shot_today') else 'no'}"
    out.append(paint("patrols", "head") + f"   {info}")
    for i, card in enumerate(discard):
        label = "  discard " if i == 0 else "          "
        out.append(f"{label}#{card} {' > '.join(card_locs(card))}")
    if sd.get("peek") is not None:
        out.append(f"  top     #{sd['peek']} {' > '.join(card_locs(sd['peek']))}   (seen by the mole)")
    closed = ", ".join("-".join(road) for road in sd.get("closed_roads", []))
    out.append(paint("closed roads", "head") + f"  {closed or 'none'}")
    if sd.get("dark_lady") is not None:
        out.append(paint("dark lady", "head") + f"  {sd['dark_lady']}")
    return "\n".join(out) + "\n"
