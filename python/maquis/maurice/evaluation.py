"""``maquis.maurice.evaluate`` (docs/api/maurice.md "Agents and evaluation") and
``maquis maurice eval``: a policy against the bundled opponents.

For each learner side and each opponent (results are per side and per opponent), ``episodes``
games in ``MauriceEnv`` with seeds ``seed``, ``seed + 1``, …; the table gives win, draw and loss
rates with 95% Wilson intervals, the mean game length in rounds and the learner's mean morale
margin (own morale left / own start − the same for the enemy). The table, the intervals and the
command line's common flags are ``maquis.common.evaluation``'s.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..common.evaluation import (
    VERSUS_OUTCOMES, Column, VersusResult, VersusRow, add_versus_arguments, check_versus, eval_agent_names,
    play_games, play_versus, plot_versus, run_versus, versus_key_columns,
)
from ..common.single import BUNDLED_OPPONENTS
from ._common import DEFAULT_BUDGET
from .opponents import OPPONENTS

OUTCOMES = VERSUS_OUTCOMES
SIDES = ("blue", "red")


@dataclass
class Row(VersusRow):
    """One learner side against one opponent."""

    mean_rounds: float
    mean_morale_margin: float  # the learner's, in [-1, 1]

    stat_fields: ClassVar[tuple[str, ...]] = ("mean_rounds", "mean_morale_margin")


@dataclass
class EvalResult(VersusResult):
    """The table of an evaluation: one row per (learner side, opponent)."""

    key_columns: ClassVar[tuple[Column, ...]] = versus_key_columns(5)
    stat_columns: ClassVar[tuple[Column, ...]] = (
        Column("rounds", 6, lambda r: f"{r.mean_rounds:.1f}"),
        Column("morale", 6, lambda r: f"{r.mean_morale_margin:+.2f}"),
    )


def _policy(policy: Any, seed: int, budget: int) -> tuple[str, Any]:
    """(name, object with act(obs, mask)) of a bundled id or a policy object."""
    if isinstance(policy, str):
        if policy not in OPPONENTS:
            raise ValueError(f"unknown agent {policy!r}: expected one of {', '.join(OPPONENTS)} or an object with act")
        from .agents import make_agent

        return policy, make_agent(policy, seed=seed, budget=budget)
    if not callable(getattr(policy, "act", None)):
        raise TypeError(
            f"policy must be a bundled agent id ({', '.join(map(repr, OPPONENTS))}) "
            f"or an object with act(obs, mask) -> int, got {type(policy).__name__}"
        )
    return getattr(policy, "name", type(policy).__name__), policy


def _margin(morale: dict[str, dict[str, int]], side: str) -> float:
    """`side`'s morale margin from a state_dict's `morale`."""
    share = {s: m["left"] / max(1, m["start"]) for s, m in morale.items()}
    return share[side] - share[SIDES[1 - SIDES.index(side)]]


def play_episodes(
    policy: Any, side: str, opponent: str, episodes: int, seed: int, budget: int = DEFAULT_BUDGET,
    scenario: str = "standard", terrain: str = "scenario", progress: Callable[[int], None] | None = None,
) -> list[tuple[str, int, float]]:
    """(outcome, rounds played, learner's morale margin) of ``episodes`` games of ``policy``
    playing ``side``; ``progress(1)`` after each game."""
    from .single import MauriceEnv

    env = MauriceEnv(side=side, opponent=opponent, scenario=scenario, terrain=terrain,
                     opponent_kwargs={"budget": budget} if opponent == "search" else None)

    def record(env: Any, info: dict[str, Any]) -> tuple[str, int, float]:
        sd = env.state_dict()
        return info["outcome"], int(sd["round"]), _margin(sd["morale"], side)

    return play_games(env, policy, episodes, seed, record, progress)


def evaluate(
    policy: Any = "heuristic",
    side: str = "blue",
    opponents: Iterable[str] = BUNDLED_OPPONENTS,
    scenario: str = "standard",
    terrain: str = "scenario",
    episodes: int = 100,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    progress: bool = False,
) -> EvalResult:
    """Win/draw/loss rates with 95% CIs, mean game length in rounds and mean morale margin of
    ``policy`` per learner side and opponent.

    ``policy``: a bundled agent id or any object with ``act(obs, mask) -> int`` (the learner's full
    21334-float observation and its legal mask). ``side``: ``"blue"``, ``"red"`` or ``"both"``.
    ``scenario``, ``terrain``: as for ``MauriceEnv``. Game ``k`` of each row is ``MauriceEnv``
    reset with ``seed + k``. ``budget``: the playouts per decision of ``search`` (opponent or
    policy). ``progress``: a progress bar on stderr when it is a terminal.
    """
    sides, opponents = check_versus(side, SIDES, opponents, OPPONENTS, episodes)
    settings = {"side": side, "opponents": list(opponents), "scenario": scenario, "terrain": terrain,
                "episodes": episodes, "budget": budget}
    return play_versus(
        EvalResult(seed=seed, settings=settings), Row,
        lambda: _policy(policy, seed * 1_000_003 + 11, budget),
        lambda agent, s, o, update: play_episodes(agent, s, o, episodes, seed, budget, scenario, terrain, progress=update),
        sides, opponents, episodes, progress,
    )


#: A bar chart of outcome rates per side and opponent, one panel per policy (PNG).
plot = plot_versus


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_versus_arguments(p, OPPONENTS, SIDES)
    p.add_argument("--scenario", choices=("standard", "skirmish"), default="standard",
                   help="the scenario (default: standard)")
    p.add_argument("--terrain", choices=("scenario", "random"), default="scenario",
                   help="the scenario's terrain or a random one per game (default: scenario)")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                   help=f"playouts per decision of search (default {DEFAULT_BUDGET})")


def _policies(args: argparse.Namespace) -> list[str]:
    if args.policy:
        raise ValueError("--policy: Maurice Lite has no saved policy format yet; evaluate bundled agents with --agents")
    return eval_agent_names(args, OPPONENTS)


def run(args: argparse.Namespace) -> int:
    return run_versus(
        args, "maquis maurice eval", EvalResult, _policies,
        lambda a, opponents: evaluate(a, side=args.side, opponents=opponents, scenario=args.scenario,
                                      terrain=args.terrain, episodes=args.episodes, seed=args.seed,
                                      budget=args.budget, progress=not args.no_progress),
    )
