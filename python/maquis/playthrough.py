"""Golden playthroughs: readable text traces of whole games, kept under `tests/playthroughs/`.

Each trace is one game played by a seeded bundled agent through the public API: before every
decision what the state shows and the legal actions (by name), then the action taken and what
happened, and at the end the outcome. `tests/test_playthroughs.py` plays every game again and
diffs the text against its file, so that any change of behaviour (rules, draws, masks, agents)
shows up as a readable diff. After an intended change, regenerate them and review the diff:

    python -m maquis playthrough --regenerate tests/playthroughs
    python -m maquis playthrough --check tests/playthroughs      # what the test does
    python -m maquis playthrough normal_heuristic                # print one trace

The trace format is game-agnostic (`format_trace` over `Decision`s: status lines, legal action
names, the action, narration lines); a game adds a `Scenario` kind that yields them.
"""

from __future__ import annotations

import argparse
import difflib
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "SCENARIOS",
    "Decision",
    "Scenario",
    "add_arguments",
    "check",
    "format_trace",
    "generate",
    "regenerate",
    "run",
]

WIDTH = 100


# ---------------------------------------------------------------------------------------------
# The game-agnostic core: decisions in, text out
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One decision of a game, as the trace shows it."""

    status: Sequence[str]  # what the state shows before the decision
    legal: Sequence[str]  # the legal action names, in index order
    action: str  # the name of the action taken
    events: Sequence[str]  # what happened, in words


def _wrapped(prefix: str, words: Sequence[str]) -> list[str]:
    text = " ".join(words) if words else "(none)"
    return textwrap.wrap(
        text, WIDTH, initial_indent=prefix, subsequent_indent=" " * len(prefix), break_on_hyphens=False
    ) or [prefix.rstrip()]


def format_trace(
    header: Mapping[str, Any], decisions: Iterable[Decision], ending: Sequence[str]
) -> str:
    """The text of a playthrough: the header (`key: value` lines), each decision, the ending."""
    lines = [f"{key}: {value}" for key, value in header.items()]
    for n, d in enumerate(decisions, 1):
        lines.append("")
        lines.append(f"## decision {n}")
        lines.extend(d.status)
        lines.extend(_wrapped(f"legal ({len(d.legal)}): ", d.legal))
        lines.append(f"action: {d.action}")
        lines.extend(f"  > {e}" for e in d.events)
    lines.append("")
    lines.append("## end")
    lines.extend(ending)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Maquis: the environment, an agent, and the narrator of `maquis play`
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """One golden game: the environment's keywords, the reset's seed and options, the agent."""

    name: str
    env: Mapping[str, Any]
    seed: int
    agent: str  # a bundled agent: "random" or "heuristic"
    agent_seed: int = 0
    options: Mapping[str, Any] | None = None
    game: str = "maquis"
    notes: str = ""


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
    lines.extend(_wrapped("board: ", _board_words(sd.get("board", {}))))
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
        "reset": f"seed={scenario.seed}" + (f", options={dict(scenario.options)!r}" if scenario.options else ""),
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


# The games of each kind: a function from a scenario to its trace.
def dday_trace(scenario: Scenario) -> str:
    from .dday.playthrough import trace  # D-Day 1944: env holds the agent id per side

    return trace(scenario)


GAMES: dict[str, Callable[[Scenario], str]] = {"maquis": maquis_trace, "dday": dday_trace}

SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario(
            "very_easy_heuristic_officers_mansion_destroy_aa_guns",
            {"difficulty": "very_easy", "missions": ["officers_mansion", "destroy_aa_guns"]},
            seed=5,
            agent="heuristic",
            agent_seed=5,
            notes="both passes of the day track (D1)",
        ),
        Scenario(
            "easy_heuristic_sabotage_aid_the_spy",
            {"difficulty": "easy", "missions": ["sabotage", "aid_the_spy"]},
            seed=2,
            agent="heuristic",
            agent_seed=2,
        ),
        Scenario(
            "normal_heuristic_newspaper_infiltration",
            {"difficulty": "normal", "missions": ["underground_newspaper", "infiltration"]},
            seed=3,
            agent="heuristic",
            agent_seed=3,
        ),
        Scenario(
            "normal_heuristic_coded_messages_bomb_the_barracks",
            {"difficulty": "normal", "missions": ["coded_messages", "bomb_the_barracks"]},
            seed=6,
            agent="heuristic",
            agent_seed=6,
        ),
        Scenario(
            "normal_random_assassination_milice_hq",
            {"difficulty": "normal", "missions": ["assassination", "milice_hq"]},
            seed=4,
            agent="random",
            agent_seed=4,
        ),
        Scenario(
            "tricky_heuristic_first_edition",
            {"difficulty": "tricky", "mission_pool": "first_edition"},
            seed=193,
            agent="heuristic",
            agent_seed=5,
            notes="missions dealt uniformly from the first-edition pool",
        ),
        Scenario(
            "hard_heuristic_pnp_2013_grouped",
            {"difficulty": "hard", "mission_pool": "pnp_2013", "deal": "grouped_2013"},
            seed=4,
            agent="heuristic",
            agent_seed=6,
            notes="missions dealt by the 2013 groups",
        ),
        Scenario(
            "very_hard_heuristic_grouped_2019",
            {"difficulty": "very_hard", "deal": "grouped_2019"},
            seed=63,
            agent="heuristic",
            agent_seed=7,
            notes="missions dealt by the 2019 groups",
        ),
        Scenario(
            "normal_random_leader_double_agent_start",
            {"difficulty": "normal", "missions": ["free_the_resistance_leader", "double_agent"]},
            seed=8,
            agent="random",
            agent_seed=8,
            options={
                "patrol_deck": [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
                "start": {"resources": {"money": 2, "intel": 2, "fake_id": 1}, "morale": 5},
            },
            notes="reset options: a fixed patrol deck and a richer start",
        ),
        Scenario(
            "dday_heuristic_vs_heuristic",
            {"resistance": "heuristic", "german": "heuristic"},
            seed=1,
            agent="heuristic",
            agent_seed=1,
            game="dday",
        ),
        Scenario(
            "dday_search_vs_random",
            {"resistance": "search", "german": "random", "budget": 40},
            seed=2,
            agent="search",
            agent_seed=2,
            game="dday",
            notes="the search agent as the Resistance, with a small budget to keep the test fast",
        ),
        Scenario(
            "dday_random_vs_search",
            {"resistance": "random", "german": "search", "budget": 40},
            seed=3,
            agent="random",
            agent_seed=3,
            game="dday",
        ),
        Scenario(
            "dday_random_vs_heuristic_options",
            {"resistance": "random", "german": "heuristic"},
            seed=4,
            agent="random",
            agent_seed=4,
            game="dday",
            options={
                "allocation": {
                    "caen": ["squad", "vip"],
                    "bayeux": ["squad", "goods"],
                    "lison": ["squad", "goods", "gendarme"],
                    "saint_lo": ["passenger", "gendarme"],
                    "avranches": ["gendarme", "gendarme"],
                },
                "attack": ["caen", "saint_lo"],
                "first": "saint_lo",
                "dice": [6, 5],
            },
            notes="reset options: a fixed allocation, attack, order and the first dice",
        ),
    )
}


def generate(name: str) -> str:
    """The text of the playthrough `name` (a key of `SCENARIOS`), played now."""
    try:
        scenario = SCENARIOS[name]
    except KeyError:
        raise ValueError(f"unknown playthrough {name!r}: expected one of {', '.join(SCENARIOS)}") from None
    return GAMES[scenario.game](scenario)


def _path(directory: str | Path, name: str) -> Path:
    return Path(directory) / f"{name}.txt"


def regenerate(directory: str | Path) -> list[Path]:
    """Write every playthrough into `directory` (`<name>.txt`); returns the files written."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCENARIOS:
        path = _path(directory, name)
        path.write_text(generate(name))
        written.append(path)
    return written


def diff(name: str, directory: str | Path) -> str:
    """A unified diff from the file of playthrough `name` to the game played now ("" if equal)."""
    path = _path(directory, name)
    try:
        expected = path.read_text()
    except FileNotFoundError:
        expected = ""
    actual = generate(name)
    if actual == expected:
        return ""
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=str(path),
            tofile=f"{name} (played now)",
        )
    )


def check(directory: str | Path) -> dict[str, str]:
    """The diff of every playthrough whose file differs from the game played now."""
    return {name: d for name in SCENARIOS if (d := diff(name, directory))}


# ---------------------------------------------------------------------------------------------
# maquis playthrough
# ---------------------------------------------------------------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("names", nargs="*", metavar="NAME", help="print these playthroughs (default: list them)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--regenerate", metavar="DIR", help="write every playthrough into DIR as NAME.txt")
    group.add_argument("--check", metavar="DIR", help="diff every playthrough against DIR/NAME.txt")


def run(args: argparse.Namespace) -> int:
    if args.regenerate:
        for path in regenerate(args.regenerate):
            print(f"wrote {path} ({path.stat().st_size} bytes)")
        return 0
    if args.check:
        diffs = check(args.check)
        for text in diffs.values():
            sys.stdout.write(text)
        print(f"{len(SCENARIOS) - len(diffs)} of {len(SCENARIOS)} playthroughs unchanged", file=sys.stderr)
        return 1 if diffs else 0
    if not args.names:
        for name, s in SCENARIOS.items():
            print(f"{name}: {s.game}, {dict(s.env)}, seed {s.seed}, agent {s.agent}")
        return 0
    for name in args.names:
        try:
            sys.stdout.write(generate(name))
        except ValueError as err:
            print(f"maquis playthrough: {err}", file=sys.stderr)
            return 2
    return 0
