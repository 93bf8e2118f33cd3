"""The text view (``render_ansi``): the map in RULES S3's characters, a line per unit, the CinCs,
army morale, the hands, the deck and the round; and ``render_compact``, the rows of the same map
that keep both armies in view beside a short panel, in at most 16 lines of 80 characters, for the
terminal game."""

from __future__ import annotations

from collections.abc import Mapping

from ...common.terminal import clip, wrap
from .view import (
    DECK_NOTE,
    HEIGHT,
    SIDES,
    WIDTH,
    awaiting,
    hand_words,
    map_grid,
    modifier_words,
    moving_words,
    outcome_line,
    pending_words,
    round_words,
    side_view,
    walls,
)

_LABEL = 4  # "29  " before each map row


def _wall_line(north: set, y: int, x0: int = 0, x1: int = WIDTH) -> str | None:
    """The line between rows y + 1 and y: ``=`` under each cell of row y with a wall on its
    north edge (RULES S3's map), or None when there is none."""
    marks = "".join("=" if (x, y) in north else " " for x in range(x0, x1))
    return " " * _LABEL + marks.rstrip() if marks.strip() else None


def map_lines(sd: Mapping, rows: range | None = None) -> list[str]:
    """The map, row 29 (red's edge) on top, with the wall lines between rows and the column
    numbers under it; ``rows`` limits it to those rows."""
    grid = map_grid(sd)
    north, east = walls(sd)
    rows = range(HEIGHT) if rows is None else rows
    out = []
    for y in reversed(rows):
        out.append(f"{y:>2}  " + "".join(grid[y]))
        if y != rows.start:
            line = _wall_line(north, y - 1) if y - 1 in rows else None
            if line:
                out.append(line)
    out.append(" " * _LABEL + "".join(str(x // 10) for x in range(WIDTH)))
    out.append(" " * _LABEL + "".join(str(x % 10) for x in range(WIDTH)))
    if east:
        shown = sorted((x, y) for x, y in east if y in rows)
        if shown:
            out.extend(wrap("walls on east edges (between x and x+1): " + " ".join(f"({x},{y})" for x, y in shown), 80, "    "))
    return out


def unit_line(side: str, u: Mapping) -> str:
    flags = [w for w, on in (("smoke", u.get("smoke")), ("fired", u.get("fired"))) if on]
    if not u.get("on_table", True):
        flags.insert(0, "BROKEN")
    bases = 1 if u["type"] == "art" else 4
    return (
        f"  {side:<4} {u['id']:>2}  {u['type']:<3} {u['formation']:<9} facing {u['facing']}  "
        f"at ({u['x']:>2},{u['y']:>2})  DISR {u['disr']}/{bases}" + (f"  {' '.join(flags)}" if flags else "")
    )


def header(sd: Mapping) -> str:
    viewer = f"  [seen by {sd['viewer']}]" if sd.get("viewer") else ""
    return (
        f"MAURICE LITE ({sd.get('scenario')})  round {sd.get('round')}, {sd.get('active')} active  "
        f"phase {sd.get('phase')}: {awaiting(sd)}{viewer}"
    )


def render_ansi(sd: Mapping, side: str | None = None) -> str:
    """The whole position as text; ``side`` shows only what that side may see (its own hand)."""
    if side is not None:
        sd = side_view(sd, side)
    out = wrap(header(sd), 100, "  ")
    out.append("")
    out += map_lines(sd)
    out.append("  I inf, C cav, A art (capitals blue, small red); B/R the CinCs; T woods, % rough,")
    out.append("  ~ marsh, # lake, ^ hill; = a wall on the edge between the rows above and below")
    out.append("")
    out.append("units (side, id, type, formation, facing, front-left cell, DISR):")
    for s in SIDES:
        for u in (sd.get("units") or {}).get(s) or ():
            out.append(unit_line(s, u))
    cinc = sd.get("cinc") or {}
    out.append("CinCs: " + ", ".join(f"{s} ({cinc[s][0]},{cinc[s][1]})" for s in SIDES if s in cinc))
    morale = sd.get("morale") or {}
    out.append("army morale: " + ", ".join(f"{s} {morale[s]['left']}/{morale[s]['start']}" for s in SIDES if s in morale))
    hands = sd.get("hands") or {}
    drawn = sd.get("drawn_this_round") or {}
    for s in SIDES:
        cards = hands.get(s) or []
        if cards and all(c is None for c in cards):
            text = "hidden"
        else:
            text = hand_words(cards)
            new = [c for c in drawn.get(s) or () if c is not None]
            if new:
                text += f"  (drawn this round: {hand_words(new)})"
        out += wrap(f"hand {s} ({len(cards)} cards): {text}", 100, "    ")
    discard = sd.get("discard") or []
    out.append(
        f"deck {len(sd.get('deck') or ())}, discard {len(discard)}, removed {len(sd.get('removed') or ())}"
        + (f"; last discarded {discard[-1]}" if discard else "")
    )
    words = round_words(sd)
    out += wrap("round: " + ("; ".join(words) if words else "nothing yet"), 100, "    ")
    pending = pending_words(sd)
    if pending:
        out.append(f"pending {pending}")
    dice = (sd.get("dice_log") or [])[-3:]
    if dice:
        out.append("last dice: " + "; ".join(f"{d['event']} {' '.join(map(str, d['dice']))}" for d in dice))
    result = outcome_line(sd)
    if result:
        out.append(f"GAME OVER: {result}")
    out.append(DECK_NOTE)
    return "\n".join(out) + "\n"


def _focus_rows(sd: Mapping) -> list[int]:
    """The rows of what the decision is about: the unit moving, aiming or being named, the
    CinC being placed, the force; [] when none."""
    r = sd.get("round_state") or {}
    units = sd.get("units") or {}
    active = sd.get("active")

    def unit_rows(side, ids):
        return [y for u in units.get(side) or () if u["id"] in ids and u.get("on_table", True) for _, y in u["cells"]]

    p = sd.get("pending") or {}
    if r.get("moving"):
        return unit_rows(active, {r["moving"]["id"]})
    if p.get("kind") == "aim":
        return [p["left"][1], p["right"][1]]
    if p.get("kind") == "displace":
        return [y for _, y in p.get("cells") or ()]
    if sd.get("phase") == "cinc_move" and active in (sd.get("cinc") or {}):
        return [sd["cinc"][active][1]]
    if r.get("force"):
        return unit_rows(active, set(r["force"]))
    return []


def _army_rows(sd: Mapping, side: str) -> list[int]:
    """The rows holding `side`'s units on the table, and its CinC's."""
    rows = {y for u in (sd.get("units") or {}).get(side) or () if u.get("on_table", True) for _, y in u["cells"]}
    cinc = (sd.get("cinc") or {}).get(side)
    if cinc:
        rows.add(cinc[1])
    return sorted(rows)


def _focus(sd: Mapping) -> int:
    """The row the compact map is centred on: the middle of the focus rows, else midway between
    the armies' leading rows (nearer the viewer's)."""
    rows = _focus_rows(sd)
    if rows:
        return round(sum(rows) / len(rows))
    units = sd.get("units") or {}
    blue = [y for u in units.get("blue") or () if u.get("on_table", True) for _, y in u["cells"]]
    red = [y for u in units.get("red") or () if u.get("on_table", True) for _, y in u["cells"]]
    if not (blue and red):
        return HEIGHT // 2
    middle = (max(blue) + min(red)) // 2
    # A side sees its own front line too: halfway between it and the middle.
    if sd.get("viewer") == "blue":
        return (max(blue) + middle) // 2
    if sd.get("viewer") == "red":
        return (min(red) + middle + 1) // 2
    return middle


def view_rows(sd: Mapping, lines: int) -> list[int]:
    """The map rows the compact view shows in ``lines`` lines (wall lines and the ruler
    included), in increasing order: every row holding a unit or a CinC of either army when they
    fit, then the rows of the decision's focus (the lanes aimed, a CinC's cells); the rows between
    them too when those fit, else the empty rows are left out. When the armies' rows do not fit,
    the focus rows, then the two armies' rows from their front lines back, taken in turn, so that
    both armies stay in view. The room left goes to the rows nearest the focus."""
    north, _ = walls(sd)
    walled = {y for _, y in north}

    def size(rows: set) -> int:
        return len(rows) + sum(1 for y in rows if y in walled and y + 1 in rows) + 1

    centre = min(max(_focus(sd), 0), HEIGHT - 1)
    focus = sorted(set(_focus_rows(sd)), key=lambda y: abs(y - centre))
    blue, red = _army_rows(sd, "blue"), _army_rows(sd, "red")
    wanted = set(focus) | set(blue) | set(red) | {centre}
    lo, hi = min(wanted), max(wanted)
    chosen: set = set()
    if size(set(range(lo, hi + 1))) <= lines:
        chosen = set(range(lo, hi + 1))
    elif size(set(blue) | set(red)) <= lines:
        chosen = set(blue) | set(red)
        for y in focus:
            if size(chosen | {y}) <= lines:
                chosen.add(y)
    else:
        # Front lines first: blue's highest rows, red's lowest, in turn.
        fronts = [y for pair in _zip_longest(blue[::-1], red) for y in pair if y is not None]
        for y in [*focus, *fronts]:
            if y not in chosen and size(chosen | {y}) <= lines:
                chosen.add(y)
    # The room left: the rows nearest the centre, then outwards.
    for y in sorted(range(HEIGHT), key=lambda y: (abs(y - centre), y)):
        if y not in chosen and size(chosen | {y}) <= lines:
            chosen.add(y)
    return sorted(chosen)


def _zip_longest(a: list, b: list) -> list[tuple]:
    n = max(len(a), len(b))
    return [(a[k] if k < len(a) else None, b[k] if k < len(b) else None) for k in range(n)]


def _window(sd: Mapping, lines: int) -> list[str]:
    """The rows of ``view_rows`` in ``lines`` lines, row 29 on top, wall lines between shown
    neighbours, and one line of column numbers (every fifth). A row whose number is followed by
    ``:`` has rows left out above it."""
    grid = map_grid(sd)
    north, _ = walls(sd)
    rows = view_rows(sd, lines)
    shown = set(rows)
    out = []
    for k, y in enumerate(reversed(rows)):
        gap = k > 0 and y + 1 not in shown
        out.append(f"{y:>2}{':' if gap else ' '} " + "".join(grid[y]))
        if y - 1 in shown:
            line = _wall_line(north, y - 1)
            if line:
                out.append(line)
    ruler = "".join(str(x)[-1] if x % 5 == 0 else " " for x in range(WIDTH))
    ruler = list(" " * _LABEL + ruler)
    for x in range(10, WIDTH, 5):  # two-digit numbers end under their column
        ruler[_LABEL + x - 1] = str(x)[0]
    return out + ["".join(ruler).rstrip()]


def panel(sd: Mapping, width: int, side: str | None) -> list[str]:
    """The compact view's side panel: the round, the decision, the moving unit's allowance,
    morale, the hand shown, the modifiers played and what they changed, cards, the round state."""
    morale = sd.get("morale") or {}
    hands = sd.get("hands") or {}
    out = [
        f"round {sd.get('round')}, {sd.get('active')} active",
        f"{sd.get('phase')}: {sd.get('to_move') or '-'}" if sd.get("outcome") is None else "GAME OVER",
    ]
    for w in moving_words(sd):
        out += wrap(w, width, " ")
    out.append("morale " + " ".join(f"{s} {morale[s]['left']}/{morale[s]['start']}" for s in SIDES if s in morale))
    shown = [side] if side else [s for s in SIDES if any(c is not None for c in hands.get(s) or ())]
    for s in shown:
        out += wrap(f"{s} hand: {hand_words(hands.get(s))}", width, " ")
    for w in modifier_words(sd):
        out += wrap(w, width, " ")
    out += [
        "cards " + " ".join(f"{s} {len(hands.get(s) or ())}" for s in SIDES)
        + f" deck {len(sd.get('deck') or ())}",
        f"discard {len(sd.get('discard') or ())} removed {len(sd.get('removed') or ())}",
    ]
    # The round state less what the lines above said.
    words = [w for w in round_words(sd) if not w.startswith(("moving unit ", "modifiers "))]
    pending = pending_words(sd)
    if pending:
        words.insert(0, pending)
    for w in words:
        out += wrap(w, width, " ")
    return [clip(line, width) for line in out]


def render_compact(sd: Mapping, width: int = 80, lines: int = 15, side: str | None = None) -> str:
    """The position in at most ``lines`` lines of ``width`` characters: the map rows of
    ``view_rows`` (both armies, the action, and around it) beside the panel (``side`` shows only
    that side's information)."""
    if side is not None:
        sd = side_view(sd, side)
    left = _window(sd, lines)
    room = max(10, width - (_LABEL + WIDTH) - 2)
    right = panel(sd, room, side or sd.get("viewer"))
    if len(right) > len(left):
        right = right[: len(left) - 1] + ["(`board` shows everything)"]
    out = []
    for k in range(max(len(left), len(right))):
        a = left[k] if k < len(left) else ""
        b = right[k] if k < len(right) else ""
        out.append(clip(f"{a:<{_LABEL + WIDTH}}  {b}".rstrip(), width))
    result = outcome_line(sd)
    if result:
        out.append(clip(f"GAME OVER: {result}", width))
    return "\n".join(out) + "\n"
