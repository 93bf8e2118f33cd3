"""``maquis.dday.evaluation.evaluate`` (docs/api/dday1944.md's ``maquis.dday.evaluate``) and ``maquis dday eval``: a policy
against the bundled opponents.

For each learner side and each opponent (RULES D2: results are per side and per level, the game
being asymmetric), ``episodes`` games in ``DDayEnv`` with seeds ``seed``, ``seed + 1``, …; the
table gives win, draw and loss rates with 95% Wilson intervals and the mean VP of both sides
(the table, the intervals and the command line's common flags: ``maquis.common.evaluation``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..common.evaluation import (
    VERSUS_OUTCOMES, Column, VersusResult, VersusRow, add_versus_arguments, check_versus, eval_agent_names,
    play_games, play_versus, plot_versus, run_versus, versus_key_columns,
)
from ..common.single import BUNDLED_OPPONENTS
from .opponents import OPPONENTS, make_agent, other

OUTCOMES = VERSUS_OUTCOMES
SIDES = ("resistance", "german")


@dataclass
class Row(VersusRow):
    """One learner side against one opponent."""

    mean_vp: float  # the learner's
    mean_opponent_vp: float

    stat_fields: ClassVar[tuple[str, ...]] = ("mean_vp", "mean_opponent_vp")


@dataclass
class EvalResult(VersusResult):
    """The table of an evaluation: one row per (learner side, opponent)."""

    key_columns: ClassVar[tuple[Column, ...]] = versus_key_columns(10)
    stat_columns: ClassVar[tuple[Column, ...]] = (
        Column("VP", 5, lambda r: f"{r.mean_vp:.1f}"),
        Column("opp VP", 6, lambda r: f"{r.mean_opponent_vp:.1f}"),
    )


def _policy(policy: Any, seed: int, budget: int) -> tuple[str, Any]:
    """(name, object with act(obs, mask)) of a bundled id or a policy object."""
    if isinstance(policy, str) and policy in OPPONENTS:
        return policy, make_agent(policy, seed=seed, budget=budget)
    if isinstance(policy, (str, os.PathLike)):
        from .policy import load_policy

        return str(policy), load_policy(policy)
    if not callable(getattr(policy, "act", None)):
        raise TypeError(
            "policy must be a bundled agent id ('random', 'heuristic', 'search', 'network', 'network_search'), a policy file "
            f"or an object with act(obs, mask) -> int, got {type(policy).__name__}"
        )
    return getattr(policy, "name", type(policy).__name__), policy


def play_episodes(
    policy: Any, side: str, opponent: str, episodes: int, seed: int, budget: int = 200,
    progress: Callable[[int], None] | None = None,
) -> list[tuple[str, int, int]]:
    """(outcome, learner VP, opponent VP) of ``episodes`` games of ``policy`` playing ``side``;
    ``progress(1)`` after each game."""
    from . import DDayEnv

    env = DDayEnv(side=side, opponent=opponent, opponent_kwargs={"budget": budget} if opponent.split("@")[0] in ("search", "network_search") else None)

    def record(env: Any, info: dict[str, Any]) -> tuple[str, int, int]:
        vp = info["vp"]
        return info["outcome"], int(vp[side]), int(vp[other(side)])

    return play_games(env, policy, episodes, seed, record, progress)


def evaluate(
    policy: Any = "heuristic",
    side: str = "resistance",
    opponents: Iterable[str] = BUNDLED_OPPONENTS,
    episodes: int = 100,
    seed: int = 0,
    budget: int = 200,
    progress: bool = False,
) -> EvalResult:
    """Win/draw/loss rates with 95% CIs and mean VP of ``policy`` per learner side and opponent.

    ``policy``: a bundled agent id, a saved policy file (``maquis-mlp-v1``, as
    ``examples/dday_ppo.py`` writes; see ``maquis.dday.policy``), or any object with
    ``act(obs, mask) -> int`` (the learner's 380-float observation and its legal mask). ``side``: ``"resistance"``, ``"german"`` or
    ``"both"``. ``budget``: the simulations per decision of ``search`` (opponent or policy).
    ``progress``: a progress bar on stderr when it is a terminal.
    """
    sides, opponents = check_versus(side, SIDES, opponents, OPPONENTS, episodes)
    return play_versus(
        EvalResult(seed=seed, settings={"side": side, "opponents": list(opponents), "episodes": episodes, "budget": budget}),
        Row,
        lambda: _policy(policy, seed * 1_000_003 + 11, budget),
        lambda agent, s, o, update: play_episodes(agent, s, o, episodes, seed, budget, progress=update),
        sides, opponents, episodes, progress,
    )


#: A bar chart of outcome rates per side and opponent, one panel per policy (PNG).
plot = plot_versus


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_versus_arguments(p, OPPONENTS, SIDES)
    p.add_argument("--budget", type=int, default=200,
                   help="simulations per decision of search and network_search (default 200)")


def run(args: argparse.Namespace) -> int:
    return run_versus(
        args, "maquis dday eval", EvalResult, lambda args: [*eval_agent_names(args, OPPONENTS), *args.policy],
        lambda a, opponents: evaluate(a, side=args.side, opponents=opponents, episodes=args.episodes,
                                      seed=args.seed, budget=args.budget, progress=not args.no_progress),
    )
