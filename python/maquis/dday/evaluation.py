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
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..common.cli import add_side, comma_list
from ..common.evaluation import (
    Column, OutcomeRates, ResultTable, add_eval_arguments, count_outcomes, eval_agent_names, report,
)
from ..common.evaluation import plot as plot_rates
from ..common.progress import progress_bar
from .opponents import OPPONENTS, make_agent, other

OUTCOMES = ("win", "draw", "loss")
SIDES = ("resistance", "german")


@dataclass
class Row(OutcomeRates):
    """One learner side against one opponent."""

    policy: str
    side: str
    opponent: str
    episodes: int
    counts: dict[str, int]
    mean_vp: float  # the learner's
    mean_opponent_vp: float

    outcomes: ClassVar[tuple[str, ...]] = OUTCOMES


@dataclass
class EvalResult(ResultTable):
    """The table of an evaluation: one row per (learner side, opponent)."""

    outcomes: ClassVar[tuple[str, ...]] = OUTCOMES
    key_columns: ClassVar[tuple[Column, ...]] = (
        Column("policy", 10, lambda r: r.policy, left=True),
        Column("side", 10, lambda r: r.side, left=True),
        Column("opponent", 9, lambda r: r.opponent, left=True),
    )
    stat_columns: ClassVar[tuple[Column, ...]] = (
        Column("VP", 5, lambda r: f"{r.mean_vp:.1f}"),
        Column("opp VP", 6, lambda r: f"{r.mean_opponent_vp:.1f}"),
    )

    def row(self, side: str, opponent: str) -> Row:
        for r in self.rows:
            if r.side == side and r.opponent == opponent:
                return r
        raise KeyError(f"no row for side={side!r}, opponent={opponent!r}")


def _policy(policy: Any, seed: int, budget: int) -> tuple[str, Any]:
    """(name, object with act(obs, mask)) of a bundled id or a policy object."""
    if isinstance(policy, str) and policy in OPPONENTS:
        return policy, make_agent(policy, seed=seed, budget=budget)
    if isinstance(policy, (str, os.PathLike)):
        from .policy import load_policy

        return str(policy), load_policy(policy)
    if not callable(getattr(policy, "act", None)):
        raise TypeError(
            "policy must be a bundled agent id ('random', 'heuristic', 'search'), a policy file "
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

    env = DDayEnv(side=side, opponent=opponent, opponent_kwargs={"budget": budget} if opponent == "search" else None)
    records = []
    for k in range(episodes):
        obs, info = env.reset(seed=seed + k)
        terminated = False
        while not terminated:
            action = int(policy.act(obs, info["action_mask"]))
            obs, _, terminated, truncated, info = env.step(action)
            terminated = terminated or truncated
        vp = info["vp"]
        records.append((info["outcome"], int(vp[side]), int(vp[other(side)])))
        if progress is not None:
            progress(1)
    env.close()
    return records


def evaluate(
    policy: Any = "heuristic",
    side: str = "resistance",
    opponents: Iterable[str] = OPPONENTS,
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
    sides = SIDES if side == "both" else (side,)
    if side not in (*SIDES, "both"):
        raise ValueError(f"unknown side {side!r}: expected resistance, german or both")
    opponents = tuple(opponents)
    for o in opponents:
        if o not in OPPONENTS:
            raise ValueError(f"unknown opponent {o!r}: expected one of {', '.join(OPPONENTS)}")
    if episodes < 1:
        raise ValueError(f"episodes must be at least 1, got {episodes}")
    result = EvalResult(seed=seed, settings={"side": side, "opponents": list(opponents), "episodes": episodes, "budget": budget})
    bar = progress_bar(len(sides) * len(opponents) * episodes, enabled=progress)
    for s in sides:
        for o in opponents:
            name, agent = _policy(policy, seed * 1_000_003 + 11, budget)
            bar.set_description(f"{s} v {o}")
            recs = play_episodes(agent, s, o, episodes, seed, budget, progress=bar.update)
            result.rows.append(Row(
                policy=name,
                side=s,
                opponent=o,
                episodes=len(recs),
                counts=count_outcomes([r[0] for r in recs], OUTCOMES),
                mean_vp=sum(r[1] for r in recs) / len(recs),
                mean_opponent_vp=sum(r[2] for r in recs) / len(recs),
            ))
    bar.close()
    return result


def plot(result: EvalResult, path: str) -> None:
    """A bar chart of outcome rates per side and opponent, one panel per policy (PNG)."""
    plot_rates(result.rows, OUTCOMES, lambda r: r.policy, lambda r: f"{r.side} v {r.opponent}", path)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_eval_arguments(p, OPPONENTS, "per side and opponent")
    add_side(p, (*SIDES, "both"), "both", "the learner's side, or both in turn (default: both)")
    p.add_argument("--opponents", default="random,heuristic", metavar="A,B",
                   help="comma-separated opponents (default: random,heuristic; add search, slower)")
    p.add_argument("--budget", type=int, default=200, help="simulations per decision of search (default 200)")


def run(args: argparse.Namespace) -> int:
    try:
        policies = [*eval_agent_names(args, OPPONENTS), *args.policy]
        opponents = comma_list(args.opponents)
        total = EvalResult(seed=args.seed)
        for a in policies:
            r = evaluate(a, side=args.side, opponents=opponents, episodes=args.episodes, seed=args.seed,
                         budget=args.budget, progress=not args.no_progress)
            total.rows += r.rows
            total.settings = r.settings | {"agents": [str(a) for a in policies]}
    except ValueError as err:
        print(f"maquis dday eval: {err}", file=sys.stderr)
        return 2
    report(args, total, total.to_text(), lambda path: plot(total, path))
    return 0
