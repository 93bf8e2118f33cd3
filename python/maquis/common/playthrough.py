"""Golden playthroughs of any game: readable text traces of whole games, diffed by the tests.

A game supplies its `Scenario`s and a function from a scenario to its trace, which it builds with
`format_trace` from `Decision`s (what the state shows, the legal action names, the action, what
happened) and its own narration. `Playthroughs` plays, writes and checks a set of them and is the
`playthrough` command of the game (`maquis.maquis.playthrough`, `maquis.dday.playthrough`).
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
    "WIDTH", "Decision", "Playthroughs", "Scenario", "format_trace", "reset_words", "two_player_decisions",
    "two_player_trace", "wrapped",
]

WIDTH = 100


@dataclass(frozen=True)
class Decision:
    """One decision of a game, as the trace shows it."""

    status: Sequence[str]  # what the state shows before the decision
    legal: Sequence[str]  # the legal action names, in index order
    action: str  # the name of the action taken
    events: Sequence[str]  # what happened, in words


@dataclass(frozen=True)
class Scenario:
    """One golden game: the environment's keywords, the reset's seed and options, the agent."""

    name: str
    env: Mapping[str, Any]
    seed: int
    agent: str  # a bundled agent id
    agent_seed: int = 0
    options: Mapping[str, Any] | None = None
    game: str = ""  # the key of the game it plays (every game's scenarios name it)
    notes: str = ""


def wrapped(prefix: str, words: Sequence[str]) -> list[str]:
    """`prefix` and the words, wrapped at `WIDTH` under the prefix; `(none)` for no words."""
    text = " ".join(words) if words else "(none)"
    return textwrap.wrap(
        text, WIDTH, initial_indent=prefix, subsequent_indent=" " * len(prefix), break_on_hyphens=False
    ) or [prefix.rstrip()]


def reset_words(scenario: Scenario) -> str:
    """The reset of a scenario, as its header shows it."""
    options = f", options={dict(scenario.options)!r}" if scenario.options else ""
    return f"seed={scenario.seed}{options}"


def format_trace(
    header: Mapping[str, Any], decisions: Iterable[Decision], ending: Sequence[str]
) -> str:
    """The text of a playthrough: the header (`key: value` lines), each decision, the ending."""
    lines = [f"{key}: {value}" for key, value in header.items()]
    for n, d in enumerate(decisions, 1):
        lines.append("")
        lines.append(f"## decision {n}")
        lines.extend(d.status)
        lines.extend(wrapped(f"legal ({len(d.legal)}): ", d.legal))
        lines.append(f"action: {d.action}")
        lines.extend(f"  > {e}" for e in d.events)
    lines.append("")
    lines.append("## end")
    lines.extend(ending)
    return "\n".join(lines) + "\n"


def two_player_decisions(
    scenario: Scenario,
    result: dict[str, Any],
    env: Any,
    make_agent: Callable[..., Any],
    sides: Sequence[str],
    budget: int,
    names: Sequence[str],
    status: Callable[[Mapping[str, Any]], list[str]],
    events: Callable[[Mapping[str, Any], Mapping[str, Any]], list[str]],
    legal_words: Callable[[list[str]], Sequence[str]] = list,
) -> Iterator[Decision]:
    """Play ``scenario`` on the AEC ``env`` of a two-player game to its end. Each of ``sides`` is
    played by ``make_agent(scenario.env[side], seed=, budget=)``, the first seeded
    ``scenario.agent_seed`` and the second the next seed, with the scenario's search budget or
    ``budget``; ``names`` are the action names, ``status`` and ``events`` the game's narration. At
    the end ``result`` holds the final state_dict (``"final"``) and each agent's info (``"infos"``)."""
    budget = int(scenario.env.get("budget", budget))
    agents = {
        side: make_agent(scenario.env[side], seed=scenario.agent_seed + k, budget=budget) for k, side in enumerate(sides)
    }
    env.reset(seed=scenario.seed, options=dict(scenario.options) if scenario.options else None)
    while True:
        before = env.state_dict()
        if before["outcome"] is not None:
            result["final"] = before
            result["infos"] = {a: dict(env.infos[a]) for a in env.infos}
            return
        side = env.agent_selection
        view = env.observe(side)
        legal = [names[int(i)] for i in view["action_mask"].nonzero()[0]]
        action = int(agents[side].act(view["observation"], view["action_mask"]))
        env.step(action)
        yield Decision(status(before), legal_words(legal), f"{side}: {names[action]}", events(before, env.state_dict()))


def two_player_trace(
    scenario: Scenario,
    game: str,
    sides: Sequence[str],
    decisions: Callable[[Scenario, dict[str, Any]], Iterable[Decision]],
    ending: Callable[[Mapping[str, Any], int], list[str]],
) -> str:
    """The text of a two-player playthrough: ``game`` names the env in the header, the first of
    ``sides`` plays with ``scenario.agent_seed`` and the second with the next seed, ``decisions``
    plays the game (filling ``result`` as `two_player_decisions` does) and ``ending(final state,
    decisions)`` says how it ended; each side's outcome follows."""
    result: dict[str, Any] = {}
    steps = list(decisions(scenario, result))
    header = {"playthrough": scenario.name, "game": game}
    for k, side in enumerate(sides):
        header[side] = f"{scenario.env[side]} (seed {scenario.agent_seed + k})"
    header["reset"] = reset_words(scenario)
    if "budget" in scenario.env:
        header["search budget"] = scenario.env["budget"]
    if scenario.notes:
        header["notes"] = scenario.notes
    lines = ending(result["final"], len(steps))
    lines.extend(f"  {a}: {info.get('outcome')}" for a, info in sorted(result["infos"].items()))
    return format_trace(header, steps, lines)


class Playthroughs:
    """A set of golden games, each traced by its game's function, kept as `<dir>/<name>.txt`."""

    def __init__(
        self,
        scenarios: Iterable[Scenario],
        traces: Mapping[str, Callable[[Scenario], str]],
        command: str,
    ) -> None:
        self.scenarios: dict[str, Scenario] = {s.name: s for s in scenarios}
        self.traces = dict(traces)  # game -> the function from a scenario to its text
        self.command = command  # how the user calls it, for messages: "maquis playthrough"

    def __add__(self, other: Playthroughs) -> Playthroughs:
        """Both sets, as one command (the golden folder holds every game's files)."""
        return Playthroughs(
            [*self.scenarios.values(), *other.scenarios.values()], {**self.traces, **other.traces}, self.command
        )

    def generate(self, name: str) -> str:
        """The text of the playthrough `name`, played now."""
        try:
            scenario = self.scenarios[name]
        except KeyError:
            raise ValueError(
                f"unknown playthrough {name!r}: expected one of {', '.join(self.scenarios)}"
            ) from None
        return self.traces[scenario.game](scenario)

    def regenerate(self, directory: str | Path) -> list[Path]:
        """Write every playthrough into `directory` (`<name>.txt`); returns the files written."""
        Path(directory).mkdir(parents=True, exist_ok=True)
        written = []
        for name in self.scenarios:
            path = _path(directory, name)
            path.write_text(self.generate(name))
            written.append(path)
        return written

    def diff(self, name: str, directory: str | Path) -> str:
        """A unified diff from the file of playthrough `name` to the game played now ("" if equal)."""
        path = _path(directory, name)
        try:
            expected = path.read_text()
        except FileNotFoundError:
            expected = ""
        actual = self.generate(name)
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

    def check(self, directory: str | Path) -> dict[str, str]:
        """The diff of every playthrough whose file differs from the game played now."""
        return {name: d for name in self.scenarios if (d := self.diff(name, directory))}

    # -----------------------------------------------------------------------------------------
    # <game> playthrough
    # -----------------------------------------------------------------------------------------

    @staticmethod
    def add_arguments(p: argparse.ArgumentParser) -> None:
        p.add_argument("names", nargs="*", metavar="NAME", help="print these playthroughs (default: list them)")
        group = p.add_mutually_exclusive_group()
        group.add_argument("-o", "--output", "--regenerate", dest="regenerate", metavar="DIR",
                           help="write every playthrough into DIR as NAME.txt")
        group.add_argument("--check", metavar="DIR", help="diff every playthrough against DIR/NAME.txt")

    def run(self, args: argparse.Namespace) -> int:
        if args.regenerate:
            for path in self.regenerate(args.regenerate):
                print(f"wrote {path} ({path.stat().st_size} bytes)")
            return 0
        total = len(self.scenarios)
        if args.check:
            diffs = self.check(args.check)
            for text in diffs.values():
                sys.stdout.write(text)
            print(f"{total - len(diffs)} of {total} playthroughs unchanged", file=sys.stderr)
            return 1 if diffs else 0
        if not args.names:
            for name, s in self.scenarios.items():
                print(f"{name}: {s.game}, {dict(s.env)}, seed {s.seed}, agent {s.agent}")
            return 0
        for name in args.names:
            try:
                sys.stdout.write(self.generate(name))
            except ValueError as err:
                print(f"{self.command}: {err}", file=sys.stderr)
                return 2
        return 0


def _path(directory: str | Path, name: str) -> Path:
    return Path(directory) / f"{name}.txt"


def every_game(first: Playthroughs) -> Playthroughs:
    """`first` (the game whose command keeps them all) and every other registered game's
    playthroughs (their declarations' `playthroughs`), as one command: they share one folder."""
    from .registry import games, load

    every = first
    for game in games():
        own = load(game.playthroughs)
        if own is not first:
            every = every + own
    return every
