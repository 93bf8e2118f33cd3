"""What a step changed, in words: the lines ``maquis play`` prints after every decision."""

from __future__ import annotations

from collections.abc import Mapping

from .tables import RESOURCES

__all__ = ["describe_changes", "outcome_text"]


def outcome_text(outcome) -> str:
    """E3: an outcome id as the end of a game announces it ("MAJOR WIN")."""
    return {"win": "WIN", "major_win": "MAJOR WIN", "draw": "DRAW", "loss": "LOSS"}.get(outcome, str(outcome))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe_changes(before: Mapping, after: Mapping, action: str | None = None) -> list[str]:
    """Short sentences for what one step (the decision ``action``, a name) changed: patrols,
    arrests, resources, tracks, missions, the end of the day.

    Reads two ``state_dict()`` views; used by ``maquis play`` after every decision.
    """
    lines: list[str] = []
    b_board, a_board = before.get("board", {}), after.get("board", {})

    patrols = []
    for loc, cell in a_board.items():
        pawn = (cell or {}).get("pawn")
        if pawn in ("milice", "soldier") and (b_board.get(loc) or {}).get("pawn") != pawn:
            patrols.append(f"{pawn} on {loc}")
    if patrols:
        lines.append("patrols placed: " + ", ".join(patrols))
    shot = [
        loc
        for loc, cell in b_board.items()
        if (cell or {}).get("pawn") == "milice"
        and not (a_board.get(loc) or {}).get("pawn")
        and after.get("day") == before.get("day")
    ]
    if shot:
        lines.append("Milice shot on " + ", ".join(shot))

    bw, aw = before.get("workers", {}), after.get("workers", {})
    gone = aw.get("gone", 0) - bw.get("gone", 0)
    # P3: a patrol that finds only workers on its card's locations arrests one and takes its place.
    raided = [
        loc
        for loc, cell in a_board.items()
        if (cell or {}).get("pawn") in ("milice", "soldier")
        and (b_board.get(loc) or {}).get("pawn") == "worker"
    ]
    for loc in raided:
        lines.append(f"a patrol arrested the worker on {loc}")
    # F7: the activated worker found no route home (or a mission removed it).
    verb, _, rest = (action or "").partition(":")
    home_from = (
        rest.split(":")[0] if verb in ("act", "skip") else after.get("pending") or before.get("pending")
    )
    if gone > len(raided):
        lost = gone - len(raided)
        if home_from and lost == 1:
            lines.append(f"the worker from {home_from} did not get home: arrested (or removed by a mission)")
        else:
            lines.append(f"{_plural(lost, 'worker')} lost (arrested or removed by a mission)")
    if gone > 0:
        lines.append(f"{aw.get('gone', 0)} of your workers gone in all")
    recruited = bw.get("recruitable", 0) - aw.get("recruitable", 0)
    if recruited > 0:
        lines.append(f"{_plural(recruited, 'worker')} recruited")

    bh, ah = before.get("hand", {}), after.get("hand", {})
    delta = [(r, ah.get(r, 0) - bh.get(r, 0)) for r in RESOURCES]
    gains = ", ".join(f"+{d} {r}" for r, d in delta if d > 0)
    losses = ", ".join(f"{d} {r}" for r, d in delta if d < 0)
    if gains or losses:
        lines.append("hand: " + ", ".join(x for x in (gains, losses) if x))

    for loc, cell in a_board.items():
        cell, old = cell or {}, b_board.get(loc) or {}
        drop = {r: n for r, n in (cell.get("airdrop") or {}).items() if n}
        if drop and drop != {r: n for r, n in (old.get("airdrop") or {}).items() if n}:
            lines.append(f"airdrop on {loc}: " + ", ".join(f"{n} {r}" for r, n in drop.items()))
        if cell.get("tile") and cell.get("tile") != old.get("tile"):
            lines.append(f"built {cell['tile']} on {loc}")
        if old.get("aa_gun") and not cell.get("aa_gun"):
            lines.append(f"AA gun on {loc} destroyed")
        if cell.get("tagged") and not old.get("tagged"):
            lines.append(f"{loc} tagged")
        if cell.get("visited") and not old.get("visited"):
            lines.append(f"{loc} visited")

    for key, name in (("morale", "morale"), ("soldiers", "soldier track")):
        if before.get(key) != after.get(key):
            lines.append(f"{name} {before.get(key)} -> {after.get(key)}")

    b_missions = {m.get("slot"): m for m in before.get("missions", ())}
    for m in after.get("missions", ()):
        old = b_missions.get(m.get("slot"), {})
        if m.get("boxes_done", 0) > old.get("boxes_done", 0) and not m.get("complete"):
            lines.append(f"mission {m.get('id')}: {m.get('boxes_done')}/{m.get('boxes')} boxes done")
        if m.get("complete") and not old.get("complete"):
            tier = f" ({m['tier']})" if m.get("tier") else ""
            lines.append(f"mission {m.get('id')} COMPLETE{tier}")
        elif m.get("tier") and m.get("tier") != old.get("tier"):
            lines.append(f"mission {m.get('id')}: {m['tier']} success")
        if m.get("failed") and not old.get("failed"):
            lines.append(f"mission {m.get('id')} can no longer be completed")

    if after.get("dark_lady") and after.get("dark_lady") != before.get("dark_lady"):
        lines.append(f"the Dark Lady is at {after['dark_lady']}")
    new_closed = [r for r in after.get("closed_roads", []) if r not in before.get("closed_roads", [])]
    if new_closed:
        lines.append("roads closed: " + ", ".join("-".join(r) for r in new_closed))
    if (after.get("day"), after.get("pass")) != (before.get("day"), before.get("pass")):
        day = after.get("day")
        lines.append(f"the day is over; now day {'START' if day == 0 else day}")
    if after.get("outcome") is not None and before.get("outcome") is None:
        lines.append(f"the game is over: {outcome_text(after['outcome'])}")
    return lines
