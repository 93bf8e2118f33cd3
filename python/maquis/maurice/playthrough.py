"""Maurice Lite golden playthroughs: whole games between bundled agents through the AEC env, traced
in the format of ``maquis.common.playthrough`` and kept as tests/playthroughs/maurice_*.txt.

Each decision shows the state (round, phase, who decides, morale, cards), the legal action names
(the cells of a CinC move counted, not listed), the action, and what happened: the dice rolled
(RULES N2 events), units moved, turned, re-formed, disrupted or broken, CinCs moved, cards drawn
and morale lost.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from ..common.playthrough import Decision, Playthroughs, Scenario, two_player_decisions, two_player_trace
from .render.view import SIDES, hand_words


def status(sd: Mapping[str, Any]) -> list[str]:
    """What the state shows before a decision, in a line."""
    morale = sd["morale"]
    hands = sd["hands"]
    return [
        f"round {sd['round']} {sd['active']} active | phase {sd['phase']} | {sd['to_move'] or 'nobody'} decides | "
        f"morale {morale['blue']['left']}-{morale['red']['left']} | hands {len(hands['blue'])}-{len(hands['red'])} "
        f"deck {len(sd['deck'])} discard {len(sd['discard'])}"
    ]


def legal_words(names: list[str]) -> list[str]:
    """The legal names, the `cell:<x>:<y>` ones counted (a CinC may have hundreds of cells)."""
    cells = sum(1 for n in names if n.startswith("cell:"))
    words = [n for n in names if not n.startswith("cell:")]
    return words + ([f"cell:<x>:<y> x{cells}"] if cells else [])


def _unit_words(u: Mapping[str, Any]) -> str:
    return f"{u['formation']} {u['facing']} at ({u['x']},{u['y']})"


def events(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """What one decision changed, in words."""
    out = []
    for roll in after["dice_log"][len(before["dice_log"]) :]:
        out.append(f"dice {roll['event']}: {' '.join(map(str, roll['dice']))}")
    for side in SIDES:
        old = {u["id"]: u for u in before["units"][side]}
        for u in after["units"][side]:
            o = old.get(u["id"])
            if o is None:
                continue
            name = f"{side} {u['id']} ({u['type']})"
            if o["on_table"] and not u["on_table"]:
                out.append(f"{name} breaks")
                continue
            if _unit_words(o) != _unit_words(u):
                out.append(f"{name}: {_unit_words(o)} -> {_unit_words(u)}")
            if o["disr"] != u["disr"]:
                out.append(f"{name}: DISR {o['disr']} -> {u['disr']}")
        if before["cinc"][side] != after["cinc"][side]:
            out.append(f"{side} CinC {tuple(before['cinc'][side])} -> {tuple(after['cinc'][side])}")
        lost = before["morale"][side]["left"] - after["morale"][side]["left"]
        if lost:
            out.append(f"{side} army morale {before['morale'][side]['left']} -> {after['morale'][side]['left']}")
        drawn, had = after["drawn_this_round"][side], before["drawn_this_round"][side]
        if len(drawn) > len(had):
            # A new round empties the list: only what was not there before is new.
            new = Counter(drawn) - Counter(had) if len(had) <= len(drawn) else Counter(drawn)
            out.append(f"{side} draws {hand_words(list(new.elements()))}")
    if len(after["removed"]) > len(before["removed"]):
        out.append("a reshuffle card leaves the game; the deck is reshuffled")
    r = after["round_state"]
    if r.get("distance") is not None and (before["round_state"].get("distance") != r["distance"]):
        out.append(f"activation distance {r['distance']}")
    if r.get("activated") and not before["round_state"].get("activated"):
        out.append("activated")
    if after["outcome"] is not None:
        out.append(f"game over: {after['outcome']}")
    return out


def decisions(scenario: Scenario, result: dict[str, Any]) -> Iterator[Decision]:
    """Play ``scenario`` (env: the agent id per side and the search budget) to its end."""
    from . import ACTION_NAMES, raw_env
    from .agents import make_agent

    return two_player_decisions(
        scenario, result, raw_env(), make_agent, ("blue", "red"), 100, ACTION_NAMES, status, events, legal_words
    )


def ending(final: Mapping[str, Any], steps: int) -> list[str]:
    """How a game ended: the last state, the outcome and the armies' morale."""
    lines = status(final)
    morale = final["morale"]
    lines.append(
        f"outcome: {final['outcome']} after {steps} decisions and {final['round']} rounds, "
        f"army morale blue {morale['blue']['left']}/{morale['blue']['start']}, red {morale['red']['left']}/{morale['red']['start']}"
    )
    return lines


def trace(scenario: Scenario) -> str:
    """The text of a Maurice Lite playthrough."""
    return two_player_trace(scenario, "maurice_lite_v0 (maquis.maurice.raw_env)", ("blue", "red"), decisions, ending)


def _maurice(name: str, seed: int, blue: str, red: str, notes: str = "", options=None, **env) -> Scenario:
    """A Maurice game: the agent id per side (seeded `seed`, `seed + 1`), `budget` for search; the
    scenario's `agent` is blue's, as the playthrough list shows it."""
    return Scenario(name, {"blue": blue, "red": red, **env}, seed, blue, seed, options, "maurice", notes)


SCENARIOS = (
    _maurice("maurice_skirmish_heuristic_vs_random", 1, "heuristic", "random", options={"scenario": "skirmish"}),
    _maurice(
        "maurice_skirmish_heuristic_vs_heuristic_morale", 2, "heuristic", "heuristic",
        options={"scenario": "skirmish", "morale": {"blue": 2, "red": 2}},
        notes="reset options: each army starts with 2 of its 4 morale, for a shorter game",
    ),
    _maurice(
        "maurice_skirmish_random_vs_heuristic_scripted", 3, "random", "heuristic",
        options={"scenario": "skirmish", "first": "red", "dice": [6, 5, 4, 3, 2, 1, 6, 6, 1, 1]},
        notes="reset options: red moves first and the first ten dice are scripted",
    ),
)

PLAYTHROUGHS = Playthroughs(SCENARIOS, {"maurice": trace}, "maquis maurice playthrough")


def add_arguments(p: argparse.ArgumentParser) -> None:
    Playthroughs.add_arguments(p)


def run(args: argparse.Namespace) -> int:
    return PLAYTHROUGHS.run(args)
