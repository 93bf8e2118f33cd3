"""The text board (``render_ansi``): tracks, missions, every location, resources and patrols; and
the same in at most 12 lines for the terminal game (``render_compact``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ...common.terminal import clip, wrap
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


def _marks(sd: Mapping, loc: str, sep: str, paint=lambda text, style: text) -> list[str]:
    """What lies on ``loc`` besides its pawn: a stuck worker, a Fake ID, a tile, an airdrop, the
    marks, the Dark Lady."""
    cell = cell_at(sd, loc)
    marks = []
    if cell.get("stuck_worker"):
        marks.append("stuck worker")
    if cell.get("fake_id") and not cell.get("pawn"):
        marks.append("fake_id")
    if cell.get("tile"):
        marks.append(f"tile {cell['tile']}")
    drop = sep.join(f"{n} {r}" for r, n in (cell.get("airdrop") or {}).items() if n)
    if drop:
        marks.append(f"airdrop {drop}")
    marks += [flag for flag in ("aa_gun", "tagged", "visited") if cell.get(flag)]
    if sd.get("dark_lady") == loc:
        marks.append(paint("DARK LADY", "mark"))
    return marks


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
        extras = _marks(sd, loc, ", ", paint)
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


def render_compact(sd: Mapping, width: int = 80) -> str:
    """The position in at most 15 lines of ``width`` characters, for a terminal of 24 lines:
    day, morale and soldiers with what they mean, the missions, the resources, the workers, what
    stands on the board, and the patrols. Plain ASCII; ``render_ansi`` is the full board."""
    day, morale, soldiers = sd.get("day", 0), sd.get("morale", 0), sd.get("soldiers", 0)
    last = last_day(sd)
    head = f"{sd.get('difficulty', '?')} | day {day_name(day)}"
    if show_pass(sd):
        head += f" pass {sd.get('pass', 1)}"
    notes = [f"ends on {last}"] if last != END_DAY else []
    coming = [d for d in morale_days(sd) if day < d <= last]
    if coming:
        notes.append(f"morale -1 on {coming[0]}")
    head += f" ({', '.join(notes)})" if notes else ""
    least = min_patrols(morale)
    head += f" | morale {morale}" + (f", min {least} patrols" if least else "")
    head += f" | soldiers {soldiers}/{MAX_SOLDIERS}"
    out = wrap(head, width, max_lines=2)
    if sd.get("outcome") is not None:
        out.append(f"GAME OVER: {sd['outcome']}")
    out.append(clip(f"{sd.get('phase', '?')}: {awaiting(sd)}", width))
    for m in sorted(sd.get("missions", ()), key=lambda m: str(m.get("slot"))):
        n_stars = stars(m.get("id"))
        name = f"{m.get('id')} ({n_stars}*)" if n_stars is not None else str(m.get("id"))
        slot = str(m.get("slot", "?")).replace("mission_", "")
        out.append(clip(f"mission {slot}: {name}  {m.get('boxes_done', 0)}/{m.get('boxes', 0)} boxes, {mission_status(m)}", width))
    hand, supply = sd.get("hand", {}), sd.get("supply", {})
    cells = [f"{r} {hand.get(r, 0)}/{supply.get(r, 0)}" for r in RESOURCES]
    out += wrap("hand/supply: " + "  ".join(cells), width, max_lines=2)
    workers = sd.get("workers", {})
    keys = ("available", "placed", "stuck", "recruitable", "gone")
    out.append(clip("workers: " + ", ".join(f"{k} {workers.get(k, 0)}" for k in keys), width))
    pieces = []
    for loc in BOARD_ORDER:
        cell = cell_at(sd, loc)
        marks = [str(cell["pawn"]) + ("+id" if cell.get("fake_id") else "")] if cell.get("pawn") else []
        marks += _marks(sd, loc, " ")
        if sd.get("pending") == loc:
            marks.append("ROUTE CHECK")
        if marks:
            pieces.append(f"{loc} {'+'.join(marks) if len(marks) == 1 else '(' + ', '.join(marks) + ')'}")
    out += wrap("board: " + ("; ".join(pieces) or "empty"), width, max_lines=3)
    discard = sd.get("patrol_discard", [])
    info = f"patrols: deck {len(sd.get('patrol_deck', []))}, discard {len(discard)}"
    if sd.get("patrols_today") is not None:
        info += f", today {sd['patrols_today']}"
    info += f", shot today {'yes' if sd.get('shot_today') else 'no'}"
    if discard:
        info += f"; last #{discard[-1]} {'>'.join(card_locs(discard[-1]))}"
    if sd.get("peek") is not None:
        info += f"; next #{sd['peek']} {'>'.join(card_locs(sd['peek']))} (mole)"
    out += wrap(info, width, max_lines=2)
    closed = ", ".join("-".join(road) for road in sd.get("closed_roads", []))
    if closed:
        out += wrap(f"closed roads: {closed}", width, max_lines=1)
    return "\n".join(out) + "\n"
