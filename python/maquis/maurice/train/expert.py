"""Expert iteration for Maurice Lite: `maquis maurice train` (the shared `maquis.train.iteration`).

Generation 0: D1 `search` plays both sides of `--games0` games (or, with `--opponents0`, one side
against bundled levels in turn); later generations `network_search` with the previous generation's
network (`--opponents` likewise). Game k of a generation is played on
`--scenarios`[k % n] with the scenario's terrain; the samples are the side to move's compact
observation (the network's input, `maquis.maurice.network`), the legal mask, the teacher's move
and the game's result for that side. The curve's games are on the standard scenario.
`--recipe shipped` runs the whole chain that makes the shipped network instead
(`maquis.maurice.train.recipe`; docs/maurice_training.md says its cost).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from maquis._core import maurice as _maurice
from maquis.train import iteration as expert

PROG = "maquis maurice train"
SCENARIOS = ("standard", "skirmish")


def _maurice_arguments(p: Any) -> None:
    p.add_argument("--scenarios", default=",".join(SCENARIOS),
                   help="comma-separated scenarios of the training games, taken in turn")


def add_arguments(p: Any) -> None:
    from maquis.maurice.train import recipe

    expert.add_arguments(p, games0=200, games=100, teacher0_budget=50, budget=50, eval_budget=50,
                         eval_episodes=100, extra=_maurice_arguments)
    recipe.add_arguments(p)


def _scenarios(args: Any) -> list[str]:
    names = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    unknown = [s for s in names if s not in SCENARIOS]
    if not names or unknown:
        raise SystemExit(f"{PROG}: --scenarios must name {' and/or '.join(SCENARIOS)}, got {args.scenarios!r}")
    return names


def play(args: Any, generation: int, net_path: Path | None, model: Any = None) -> dict[str, np.ndarray]:
    """The games of one generation, played in Rust, with one-hot policy targets and unit weights."""
    seed = expert.training_seed(args, generation)
    scenarios = _scenarios(args)
    lessons = expert.lessons0(args) if generation == 0 else None
    if lessons:
        def selfplay(teacher: str, games: int, seed: int, **kw: Any) -> Any:
            return _maurice.selfplay(teacher, games, seed, scenarios=scenarios, threads=args.threads, **kw)

        data = expert.play_lessons(lessons, seed, args.teacher0_budget, selfplay)
    elif generation == 0:
        data = _maurice.selfplay("search", args.games0, seed, budget=args.teacher0_budget, scenarios=scenarios,
                                 threads=args.threads, opponents=expert.opponents(args, 0),
                                 opponent_budget=args.teacher0_budget)
    else:
        data = _maurice.selfplay("network_search", args.games, seed, budget=args.budget, network=str(net_path),
                                 scenarios=scenarios, threads=args.threads,
                                 opponents=expert.opponents(args, generation), opponent_budget=args.budget)
    return expert.one_hot(data)


def _evaluate(agent: str, opponents: Any, episodes: int, seed: int, budget: int) -> Any:
    from maquis.maurice import evaluate

    return evaluate(agent, side="both", opponents=opponents, episodes=episodes, seed=seed, budget=budget)


def game() -> expert.ExpertGame:
    """Maurice Lite for `maquis.train.iteration`."""
    from maquis.maurice.network import load_network, network_file_metadata
    from maquis.maurice.tournament import GAME as LADDER

    return expert.ExpertGame(PROG, "maurice", tuple(_maurice.SIDES), _maurice.COMPACT_OBSERVATION_SIZE,
                             _maurice.NUM_ACTIONS, play, _evaluate, load_network, network_file_metadata,
                             ladder=LADDER)


def run(args: Any) -> int:
    if getattr(args, "recipe", None):
        from maquis.maurice.train import recipe

        return recipe.run(args)
    _scenarios(args)
    return expert.run(game(), args)


__all__ = ["add_arguments", "run", "play", "game", "PROG"]
