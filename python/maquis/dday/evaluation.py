"""``maquis.dday.evaluation.evaluate`` (API.md's ``maquis.dday.evaluate``) and ``maquis dday eval``: a policy
against the bundled opponents.

For each learner side and each opponent (RULES D2: results are per side and per level, the game
being asymmetric), ``episodes`` games in ``DDayEnv`` with seeds ``seed``, ``seed + 1``, …; the
table gives win, draw and loss rates with 95% Wilson intervals (the Maquis helper) and the mean
VP of both sides.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..evaluate import OutcomeRates
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
class EvalResult:
    """The table of an evaluation: one row per (learner side, opponent)."""

    rows: list[Row] = field(default_factory=list)
    seed: int = 0
    settings: dict[str, Any] = field(default_factory=dict)

    def row(self, side: str, opponent: str) -> Row:
        for r in self.rows:
            if r.side == side and r.opponent == opponent:
                return r
        raise KeyError(f"no row for side={side!r}, opponent={opponent!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "settings": self.settings, "rows": [r.as_dict() for r in self.rows]}

    def to_json(self, **kw: Any) -> str:
        return json.dumps(self.to_dict(), **kw)

    def to_text(self) -> str:
        head = (
            f"{'policy':<10} {'side':<10} {'opponent':<9} {'games':>6}  "
            + "  ".join(f"{o:>19}" for o in OUTCOMES)
            + f"  {'VP':>5} {'opp VP':>6}"
        )
        lines = [head, "-" * len(head)]
        for r in self.rows:
            cells = []
            for o in OUTCOMES:
                lo, hi = r.interval(o)
                cells.append(f"{r.rate(o):>6.1%} [{lo:>4.0%},{hi:>4.0%}]".rjust(19))
            lines.append(
                f"{r.policy:<10} {r.side:<10} {r.opponent:<9} {r.episodes:>6}  "
                + "  ".join(cells)
                + f"  {r.mean_vp:>5.1f} {r.mean_opponent_vp:>6.1f}"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


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


def play_episodes(policy: Any, side: str, opponent: str, episodes: int, seed: int, budget: int = 200) -> list[tuple[str, int, int]]:
    """(outcome, learner VP, opponent VP) of ``episodes`` games of ``policy`` playing ``side``."""
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
    for s in sides:
        for o in opponents:
            name, agent = _policy(policy, seed * 1_000_003 + 11, budget)
            t0 = time.perf_counter()
            recs = play_episodes(agent, s, o, episodes, seed, budget)
            counts = {out: sum(1 for r in recs if r[0] == out) for out in OUTCOMES}
            row = Row(
                policy=name,
                side=s,
                opponent=o,
                episodes=len(recs),
                counts=counts,
                mean_vp=sum(r[1] for r in recs) / len(recs),
                mean_opponent_vp=sum(r[2] for r in recs) / len(recs),
            )
            result.rows.append(row)
            if progress:
                print(f"  {name} as {s} vs {o}: {episodes} games in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    return result


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--policy", default=None, metavar="AGENT|FILE",
                   help="the bundled agent or the saved policy file (maquis-mlp-v1 .npz) evaluated "
                        "(default: each of --agents in turn)")
    p.add_argument("--agents", default="random,heuristic", help="comma-separated bundled agents evaluated (default: random,heuristic)")
    p.add_argument("--sides", default="both", choices=(*SIDES, "both"), help="the learner side(s) (default: both)")
    p.add_argument("--opponents", default="random,heuristic", help="comma-separated opponents (default: random,heuristic; add search, slower)")
    p.add_argument("--episodes", type=int, default=100, help="games per side and opponent (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    p.add_argument("--budget", type=int, default=200, help="simulations per decision of search (default 200)")
    p.add_argument("--json", metavar="FILE", help="also write the table as JSON")


def run(args: argparse.Namespace) -> int:
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    agents = [args.policy] if args.policy else [a.strip() for a in args.agents.split(",") if a.strip()]
    try:
        for name in (*([] if args.policy else agents), *opponents):
            if name not in OPPONENTS:
                raise ValueError(f"unknown agent {name!r}: expected one of {', '.join(OPPONENTS)}")
        total = EvalResult(seed=args.seed)
        for a in agents:
            r = evaluate(a, side=args.sides, opponents=opponents, episodes=args.episodes, seed=args.seed,
                         budget=args.budget, progress=True)
            total.rows += r.rows
            total.settings = r.settings | {"agents": agents}
    except ValueError as err:
        print(f"maquis dday eval: {err}", file=sys.stderr)
        return 2
    print(total.to_text())
    if args.json:
        with open(args.json, "w") as f:
            f.write(total.to_json(indent=1) + "\n")
    return 0
