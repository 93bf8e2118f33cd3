"""``maquis.kuhn.evaluate`` and ``maquis kuhn eval``: a policy against the bundled levels, per seat
and opponent: win and loss rates with 95 % Wilson intervals and the mean payoff in chips (the
table and the command line: ``maquis.common.evaluation``). ``maquis kuhn exploit`` gives the exact
value instead, for a strategy."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..common.evaluation import (
    Column, VersusResult, VersusRow, add_versus_arguments, check_versus, eval_agent_names, play_games, play_versus,
    plot_versus, run_versus, versus_key_columns,
)
from ._common import OPPONENTS
from .agents import make_agent

SIDES = ("first", "second")


@dataclass
class Row(VersusRow):
    """One learner seat against one opponent."""

    mean_payoff: float  # the learner's chips a hand

    stat_fields: ClassVar[tuple[str, ...]] = ("mean_payoff",)


@dataclass
class EvalResult(VersusResult):
    """The table of an evaluation: one row per (learner seat, opponent)."""

    key_columns: ClassVar[tuple[Column, ...]] = versus_key_columns(6)
    stat_columns: ClassVar[tuple[Column, ...]] = (Column("chips", 6, lambda r: f"{r.mean_payoff:+.3f}"),)


def _policy(policy: Any, seed: int) -> tuple[str, Any]:
    """(name, object with act(obs, mask)) of a bundled id, a policy file or a policy object."""
    if isinstance(policy, str) and policy in OPPONENTS:
        return policy, make_agent(policy, seed=seed)
    if isinstance(policy, (str, os.PathLike)):
        from .policy import load_policy

        return str(policy), load_policy(policy)
    if not callable(getattr(policy, "act", None)):
        raise TypeError(f"policy must be 'random', 'heuristic', a policy file or an object with act(obs, mask) -> int, "
                        f"got {type(policy).__name__}")
    return getattr(policy, "name", type(policy).__name__), policy


def play_episodes(policy: Any, side: str, opponent: str, episodes: int, seed: int,
                  progress: Callable[[int], None] | None = None) -> list[tuple[str, int]]:
    """(outcome, learner's payoff) of `episodes` hands of `policy` in `side`'s seat."""
    from .single import KuhnEnv

    env = KuhnEnv(side=side, opponent=opponent)
    return play_games(env, policy, episodes, seed, lambda env, info: (info["outcome"], info["payoff"][side]), progress)


def evaluate(policy: Any = "heuristic", side: str = "both", opponents: Iterable[str] = OPPONENTS, episodes: int = 1000,
             seed: int = 0, progress: bool = False) -> EvalResult:
    """Win/loss rates with 95 % CIs and the mean payoff of `policy` (a bundled id, a saved policy
    or an object with `act(obs, mask) -> int`) per seat ("first", "second" or "both") and opponent."""
    sides, opponents = check_versus(side, SIDES, opponents, OPPONENTS, episodes)
    return play_versus(
        EvalResult(seed=seed, settings={"side": side, "opponents": list(opponents), "episodes": episodes}),
        Row,
        lambda: _policy(policy, seed * 1_000_003 + 11),
        lambda agent, s, o, update: play_episodes(agent, s, o, episodes, seed, progress=update),
        sides, opponents, episodes, progress,
    )


#: A bar chart of outcome rates per seat and opponent, one panel per policy (PNG).
plot = plot_versus


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_versus_arguments(p, OPPONENTS, SIDES)


def run(args: argparse.Namespace) -> int:
    return run_versus(
        args, "maquis kuhn eval", EvalResult, lambda args: [*eval_agent_names(args, OPPONENTS), *args.policy],
        lambda a, opponents: evaluate(a, side=args.side, opponents=opponents, episodes=args.episodes,
                                      seed=args.seed, progress=not args.no_progress),
    )
