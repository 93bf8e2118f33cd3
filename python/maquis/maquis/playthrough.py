"""Golden playthroughs: readable text traces of whole games, kept under `tests/playthroughs/`.

Each trace is one game played by a seeded bundled agent through the public API: before every
decision what the state shows and the legal actions (by name), then the action taken and what
happened, and at the end the outcome. `tests/test_playthroughs.py` plays every game again and
diffs the text against its file, so that any change of behaviour (rules, draws, masks, agents)
shows up as a readable diff. After an intended change, regenerate them and review the diff:

    python -m maquis playthrough --regenerate tests/playthroughs
    python -m maquis playthrough --check tests/playthroughs      # what the test does
    python -m maquis playthrough normal_heuristic                # print one trace

The plumbing and the trace format are every game's (`maquis.common.playthrough`); this module
holds the Maquis games and their narration, and its command covers every game's files, which
share the folder (`maquis.dday.playthrough` holds D-Day's, `maquis.maurice.playthrough` Maurice Lite's).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..common.playthrough import Decision, Playthroughs, Scenario, every_game, format_trace, reset_words, wrapped

__all__ = [
    "SCENARIOS",
    "Decision",
    "Scenario",
    "add_arguments",
    "check",
    "diff",
    "format_trace",
    "generate",
    "regenerate",
    "run",
]


# ---------------------------------------------------------------------------------------------
# Maquis: the environment, an agent, and the narrator of `maquis play`
# ---------------------------------------------------------------------------------------------


def _count_words(counts: Mapping[str, int]) -> str:
    shown = [f"{n} {k}" for k, n in counts.items() if n]
    return ", ".join(shown) if shown else "-"


def _board_words(board: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Every location that holds something, as `loc=what+what`."""
    words = []
    for loc, cell in board.items():
        cell = cell or {}
        parts = []
        if cell.get("pawn"):
            parts.append(cell["pawn"])
        if cell.get("stuck_worker"):
            parts.append("stuck_worker")
        if cell.get("fake_id"):
            parts.append("fake_id")
        if cell.get("tile"):
            parts.append(f"tile:{cell['tile']}")
        if cell.get("aa_gun"):
            parts.append("aa_gun")
        for res, n in (cell.get("airdrop") or {}).items():
            if n:
                parts.append(f"drop:{n}{res}")
        if cell.get("tagged"):
            parts.append("tagged")
        if cell.get("visited"):
            parts.append("visited")
        if parts:
            words.append(f"{loc}=" + "+".join(parts))
    return words


def _day_text(sd: Mapping[str, Any]) -> str:
    day = sd.get("day")
    text = "START" if day == 0 else str(day)
    return f"{text} (pass {sd['pass']})" if sd.get("pass", 1) != 1 else text


def maquis_status(sd: Mapping[str, Any]) -> list[str]:
    """What a `state_dict()` shows, in a few lines (the hidden deck order left out)."""
    w = sd.get("workers", {})
    lines = [
        f"day {_day_text(sd)} | {sd.get('phase')} | morale {sd.get('morale')} | soldiers {sd.get('soldiers')}"
        f" | workers {w.get('available')} available, {w.get('placed')} placed, {w.get('stuck')} stuck,"
        f" {w.get('recruitable')} recruitable, {w.get('gone')} gone",
        f"hand: {_count_words(sd.get('hand', {}))}",
    ]
    missions = []
    for m in sd.get("missions", ()):
        state = " complete" if m.get("complete") else " failed" if m.get("failed") else ""
        tier = f" {m['tier']}" if m.get("tier") else ""
        missions.append(f"{m.get('id')} {m.get('boxes_done')}/{m.get('boxes')}{state}{tier}")
    lines.append("missions: " + "; ".join(missions))
    lines.extend(wrapped("board: ", _board_words(sd.get("board", {}))))
    extra = [
        f"{sd.get('patrols_drawn')} of {sd.get('patrols_today')} drawn today",
        f"discard {','.join(map(str, sd.get('patrol_discard', []))) or '-'}",
        f"deck {len(sd.get('patrol_deck', []))} cards",
    ]
    if sd.get("peek") is not None:
        extra.append(f"peeked card {sd['peek']}")
    destroyed = [b for b, gone in zip(("north", "south"), sd.get("bridges_destroyed") or ()) if gone]
    if destroyed:
        extra.append("bridges destroyed " + ",".join(destroyed))
    if sd.get("closed_roads"):
        extra.append("closed " + ",".join("-".join(r) for r in sd["closed_roads"]))
    if sd.get("dark_lady"):
        extra.append(f"dark_lady {sd['dark_lady']}")
    if sd.get("shot_today"):
        extra.append("shot_today")
    if sd.get("pending"):
        extra.append(f"pending {sd['pending']}")
    lines.append("patrols: " + " | ".join(extra))
    return lines


def _describe_changes() -> Callable[..., list[str]]:
    # The narrator of `maquis play`: one account of a step for the player and for the traces.
    from .narrator import describe_changes

    return describe_changes


def _make_agent(scenario: Scenario) -> Any:
    from .agents import make_agent

    return make_agent(scenario.agent, seed=scenario.agent_seed)


def maquis_decisions(scenario: Scenario, result: dict[str, Any]) -> Iterator[Decision]:
    """Play `scenario` to its end; `result` receives the final state, the reward and the info."""
    from . import MaquisEnv

    narrate = _describe_changes()
    env = MaquisEnv(**dict(scenario.env), illegal_action="raise")
    agent = _make_agent(scenario)
    obs, info = env.reset(seed=scenario.seed, options=dict(scenario.options) if scenario.options else None)
    result["start"] = env.state_dict()
    total = 0.0
    while True:
        before = env.state_dict()
        legal = [env.action_to_str(i) for i in env.legal_actions()]
        action = int(agent.act(obs, info["action_mask"]))
        name = env.action_to_str(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        after = env.state_dict()
        yield Decision(maquis_status(before), legal, name, narrate(before, after, name))
        if terminated or truncated:
            result.update(final=after, reward=total, info=info)
            return


def _mission_summary(sd: Mapping[str, Any]) -> list[str]:
    lines = []
    for m in sd.get("missions", ()):
        state = "complete" if m.get("complete") else "failed" if m.get("failed") else "not complete"
        tier = f", {m['tier']}" if m.get("tier") else ""
        lines.append(f"  {m.get('id')} ({m.get('slot')}): {state}{tier} ({m.get('boxes_done')}/{m.get('boxes')} boxes)")
    return lines


def maquis_trace(scenario: Scenario) -> str:
    result: dict[str, Any] = {}
    decisions = list(maquis_decisions(scenario, result))
    start = result["start"]
    header = {
        "playthrough": scenario.name,
        "game": "maquis/Maquis-v0",
        "env": ", ".join(f"{k}={v!r}" for k, v in scenario.env.items()) or "defaults",
        "reset": reset_words(scenario),
        "agent": f"{scenario.agent} (seed {scenario.agent_seed})",
        "missions": ", ".join(f"{m['id']} ({m['slot']})" for m in start.get("missions", ())),
    }
    if scenario.notes:
        header["notes"] = scenario.notes
    final = result["final"]
    ending = maquis_status(final)
    ending.append(
        f"outcome: {result['info'].get('outcome')} after {len(decisions)} decisions, reward {result['reward']:+g}"
    )
    ending.extend(_mission_summary(final))
    return format_trace(header, decisions, ending)


def _maquis(name: str, seed: int, agent: str, agent_seed: int, notes: str = "", options=None, **env) -> Scenario:
    """A Maquis game: `env` are `MaquisEnv`'s keywords, in the order the header shows them."""
    return Scenario(name, env, seed, agent, agent_seed, options, "maquis", notes)


MAQUIS_SCENARIOS = (
    _maquis(
        "very_easy_heuristic_officers_mansion_destroy_aa_guns", 5, "heuristic", 5,
        difficulty="very_easy", missions=["officers_mansion", "destroy_aa_guns"],
        notes="both passes of the day track (D1)",
    ),
    _maquis("easy_heuristic_sabotage_aid_the_spy", 2, "heuristic", 2, difficulty="easy", missions=["sabotage", "aid_the_spy"]),
    _maquis(
        "normal_heuristic_newspaper_infiltration", 3, "heuristic", 3,
        difficulty="normal", missions=["underground_newspaper", "infiltration"],
    ),
    _maquis(
        "normal_heuristic_coded_messages_bomb_the_barracks", 6, "heuristic", 6,
        difficulty="normal", missions=["coded_messages", "bomb_the_barracks"],
    ),
    _maquis("normal_random_assassination_milice_hq", 4, "random", 4, difficulty="normal", missions=["assassination", "milice_hq"]),
    _maquis(
        "tricky_heuristic_first_edition", 193, "heuristic", 5, difficulty="tricky", mission_pool="first_edition",
        notes="missions dealt uniformly from the first-edition pool",
    ),
    _maquis(
        "hard_heuristic_pnp_2013_grouped", 4, "heuristic", 6, difficulty="hard", mission_pool="pnp_2013",
        deal="grouped_2013", notes="missions dealt by the 2013 groups",
    ),
    _maquis(
        "very_hard_heuristic_grouped_2019", 63, "heuristic", 7, difficulty="very_hard", deal="grouped_2019",
        notes="missions dealt by the 2019 groups",
    ),
    _maquis(
        "normal_random_leader_double_agent_start", 8, "random", 8,
        difficulty="normal", missions=["free_the_resistance_leader", "double_agent"],
        options={
            "patrol_deck": [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
            "start": {"resources": {"money": 2, "intel": 2, "fake_id": 1}, "morale": 5},
        },
        notes="reset options: a fixed patrol deck and a richer start",
    ),
)

#: The solitaire's own playthroughs (its declaration's `playthroughs`).
GAME_PLAYTHROUGHS = Playthroughs(MAQUIS_SCENARIOS, {"maquis": maquis_trace}, "maquis playthrough")
# Every game's playthroughs: they share tests/playthroughs/, so one command keeps them all.
PLAYTHROUGHS = every_game(GAME_PLAYTHROUGHS)
SCENARIOS: dict[str, Scenario] = PLAYTHROUGHS.scenarios
generate = PLAYTHROUGHS.generate
regenerate = PLAYTHROUGHS.regenerate
diff = PLAYTHROUGHS.diff
check = PLAYTHROUGHS.check


# ---------------------------------------------------------------------------------------------
# maquis playthrough
# ---------------------------------------------------------------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    Playthroughs.add_arguments(p)


def run(args: argparse.Namespace) -> int:
    return PLAYTHROUGHS.run(args)
