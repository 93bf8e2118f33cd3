"""What a state_dict says, read for the renderers, and what one side may see of it (RULES O1–O4)."""

from __future__ import annotations

import copy
from collections.abc import Mapping

ZONES = ("caen", "bayeux", "lison", "saint_lo", "avranches")
ZONE_NAMES = {
    "caen": "Caen",
    "bayeux": "Bayeux",
    "lison": "Lison",
    "saint_lo": "Saint Lo",
    "avranches": "Avranches",
}
TRAINS = ("goods", "passenger", "vip")
SIDES = ("resistance", "german")
UNITS = ("resistance", "squad", "gendarme_1", "gendarme_2", "gendarme_3")
FIGHTING = ("standing", "in_cover")
# The rows of the skirmish table: every (unit, state) class, then each side's casualty markers.
CLASSES = tuple((u, s) for u in UNITS for s in FIGHTING)
GONE = ("killed", "ran_away", "evacuated")


def side_view(sd: Mapping, side: str) -> dict:
    """A copy of ``sd`` holding only what ``side`` may see (RULES O1–O4).

    The German sees everything (the dice to come are not in a state_dict). The Resistance never
    sees the contents or values of a zone it has not attacked: those become ``None``, and the key
    ``hidden`` lists such zones. Everything else is public.
    """
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}: expected one of {SIDES}")
    view = copy.deepcopy(dict(sd))
    view["viewer"] = side
    if side == "german":
        view["hidden"] = []
        return view
    seen = set(sd.get("attacked") or ())
    hidden = [z for z in ZONES if z not in seen]
    for key in ("allocation", "zone_values"):
        if key in view and view[key] is not None:
            view[key] = {z: (v if z in seen else None) for z, v in view[key].items()}
    view["hidden"] = hidden
    return view


def train_of(items) -> str | None:
    """The train among a zone's items, or None (also when the items are hidden)."""
    for item in items or ():
        if item in TRAINS:
            return item
    return None


def awaiting(sd: Mapping) -> str:
    """The decision awaited, in words."""
    phase, who = sd.get("phase"), sd.get("to_move")
    if phase == "game_over" or who is None:
        return "game over"
    sk = sd.get("skirmish") or {}
    pending = sk.get("pending") or {}
    what = {
        "allocation": "allocates the next item",
        "interrogation": "guesses a zone's value or stops",
        "attack": "chooses two zones to attack",
        "order": "chooses the zone played first",
        "group_size": "keeps or re-rolls the group size",
        "morale": "chooses who runs away",
        "action_points": "keeps or re-rolls the squad's action points",
        "actions": "acts",
        "hit": "chooses which figure is hit",
        "clock": "keeps or re-rolls the clock die",
        "scoring": f"keeps or re-rolls the {pending.get('line', 'VP')} dice",
    }.get(phase, phase)
    return f"{who} {what}"


def counts(figures, section: int) -> dict:
    """(unit, state) -> number of figures in ``section``, casualty markers as (side, 'casualty')."""
    out: dict = {}
    for f in figures:
        if f["section"] != section:
            continue
        if f["state"] in FIGHTING:
            key = (f["unit"], f["state"])
        elif f["state"] == "casualty":
            key = (f["side"], "casualty")
        else:
            continue
        out[key] = out.get(key, 0) + 1
    return out


def losses(figures) -> dict:
    """side -> {killed, ran_away, evacuated, casualty, fighting, total} over a skirmish's figures."""
    out = {s: dict.fromkeys((*GONE, "casualty", "fighting", "total"), 0) for s in SIDES}
    for f in figures:
        row = out[f["side"]]
        row["total"] += 1
        row["fighting" if f["state"] in FIGHTING else f["state"]] += 1
    return out


def faces(task) -> str:
    """A task set as six slots: the faces held, '.' for the others."""
    held = set(task or ())
    return "".join(str(n) if n in held else "." for n in range(1, 7))


def outcome_line(sd: Mapping) -> str | None:
    outcome = sd.get("outcome")
    if outcome is None:
        return None
    vp = sd.get("vp") or {}
    score = f"{vp.get('resistance', 0)}-{vp.get('german', 0)} VP"
    if outcome == "draw":
        return f"Draw, {score}"
    return f"{'The Resistance' if outcome == 'resistance' else 'The German'} wins, {score}"
