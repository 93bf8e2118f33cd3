"""What a position says, read from a plain ``state_dict()`` with the engine's tables.

Both renderers ask these questions; hand-built dicts may miss keys or hold odd values, so every
reader falls back to the printed board instead of failing.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..tables import DIFFICULTY_SETTINGS, END_DAY, MIN_PATROLS, MISSIONS, ORANGE_DAYS, PATROL_CARDS


def _settings(sd: Mapping) -> Mapping:
    """D1: what the position's difficulty changes ({} for an unknown one: the printed board)."""
    difficulty = sd.get("difficulty")
    return DIFFICULTY_SETTINGS.get(difficulty, {}) if isinstance(difficulty, str) else {}


def day_name(day: int) -> str:
    return "START" if day == 0 else "END" if day == END_DAY else str(day)


def morale_days(sd: Mapping) -> tuple[int, ...]:
    """T1: the days whose arrival costs 1 morale (orange, or triangle on Hard and Very Hard)."""
    return _settings(sd).get("morale_days", ORANGE_DAYS)


def last_day(sd: Mapping) -> int:
    """E2: the day whose arrival ends the game."""
    return _settings(sd).get("final_day", END_DAY)


def show_pass(sd: Mapping) -> bool:
    """Very Easy plays the day track twice: say which pass it is."""
    return _settings(sd).get("passes", 1) > 1 or sd.get("pass", 1) != 1


def min_patrols(morale) -> int | None:
    """T2: the minimum patrols at this morale (None at 0, where the game is over, or off the track)."""
    known = isinstance(morale, (int, np.integer)) and 1 <= morale < len(MIN_PATROLS)
    return MIN_PATROLS[morale] if known else None


def stars(mission_id) -> int | None:
    info = MISSIONS.get(mission_id) if isinstance(mission_id, str) else None
    return info["stars"] if info is not None else None


def cell_at(sd: Mapping, loc: str) -> Mapping:
    return sd.get("board", {}).get(loc) or {}


def mission_in(sd: Mapping, slot: str) -> Mapping | None:
    return next((m for m in sd.get("missions", ()) if m.get("slot") == slot), None)


def card_locs(card) -> tuple[str, ...]:
    known = isinstance(card, (int, np.integer)) and 0 <= card < len(PATROL_CARDS)
    return PATROL_CARDS[card] if known else ()


def mission_status(m: Mapping) -> str:
    if m.get("failed"):
        return "failed"
    status = "complete" if m.get("complete") else "in progress"
    return f"{status}, {m['tier']}" if m.get("tier") else status


def awaiting(sd: Mapping) -> str:
    """The decision the player is asked for, in words."""
    phase = sd.get("phase")
    workers = sd.get("workers", {})
    if sd.get("outcome") is not None or phase == "game_over":
        return f"nothing: the game is over ({sd.get('outcome')})"
    if phase == "placement":
        return f"place a worker ({workers.get('available', 0)} still to place)"
    if phase == "action":
        return f"activate a placed worker ({workers.get('placed', 0)} on the board)"
    if phase == "post_action":
        where = sd.get("pending")
        who = f"the worker at {where}" if where else "the worker"
        return f"{who} is cut off: shoot a Milice or accept"
    return f"unknown phase {phase!r}"
