"""Expert iteration for D-Day 1944 (two players, hidden information): `maquis dday train`.

Generation 0: D1 `search` plays both sides of `--games0` games; the network learns to imitate its
moves for both seats (one-hot policy targets: the observation says which side moves) and to
predict the result for the side to move. Generation g >= 1: `network_search` with the network of
generation g-1 plays both sides, and the network learns its moves and results in the same way,
over the last `--window` generations of data. The games are played in Rust
(`maquis._core.dday.selfplay`, `--threads` threads, GIL released); torch only trains. The training
generation loop, data window, resume, curve and evaluation are `maquis.train.iteration`'s (shared with
`maquis maurice train`) over `maquis.train.common` (shared with `maquis train`).

`--init NET` starts the network from a weight file (its widths replace `--hidden`). With
`--distill SIDE=POLICY` (needs `--init`; once per side), generation 0 is a distillation instead
(`maquis.dday.train.distill`): each named side's moves from its saved policy, a side not named
keeps the `--init` network's, as soft targets; this is how the shipped network learned both seats
from PPO learners (docs/dday_training.md). `--recipe shipped` runs the whole chain that makes the
shipped network instead (`maquis.dday.train.recipe`).

Each generation: data in `OUT/data/gen<g>.npz`, the network in `OUT/net_gen<g>.safetensors`
(D-Day's fingerprint), a checkpoint (`OUT/checkpoint.pt`; a second run with the same OUT continues
after the last finished generation), and rows of `OUT/curve.csv` + `OUT/curve.png`: the win rate
with its 95% Wilson interval of `network` (and, with `--eval-search-episodes`, of
`network_search`) against each of `--eval-opponents`, from both seats, on the fixed evaluation
deals `--eval-seed`.. (never those of the training games, whose seeds start at `--seed` * 1,000,003).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

from maquis._core import dday as _dday
from maquis.dday.train import recipe as dday_recipe
from maquis.train import iteration as expert

CURVE_FIELDS = expert.CURVE_FIELDS
PROG = "maquis dday train"


def _dday_arguments(p: Any) -> None:
    p.add_argument("--distill", action="append", default=None, metavar="SIDE=POLICY",
                   help="generation 0 distils: SIDE's moves from the saved POLICY (a maquis-mlp-v1 file), a side not "
                        "named from the --init network, in games against --distill-opponents (needs --init; "
                        "once per side)")
    p.add_argument("--distill-games", type=int, default=6000, help="games a side of the distillation generation")
    p.add_argument("--distill-opponents", default="heuristic,network",
                   help="comma-separated bundled opponents of the distillation games ('network': the --init network)")


def add_arguments(p: Any) -> None:
    expert.add_arguments(p, games0=400, games=200, teacher0_budget=100, budget=100, eval_budget=200,
                         eval_episodes=300, extra=_dday_arguments)
    dday_recipe.add_arguments(p)


def play(args: Any, generation: int, net_path: Path | None, model: Any = None) -> dict[str, np.ndarray]:
    """The games of one generation, played in Rust, with one-hot policy targets and unit weights;
    with `--distill`, generation 0 is `maquis.dday.train.distill`'s (soft targets)."""
    seed = expert.training_seed(args, generation)
    if generation == 0 and args.distill:
        from maquis.dday.agents import load_network
        from maquis.dday.train import distill as dday_distill

        load_network(args.init)  # the `network` opponent is the starting network
        return dday_distill.play(args, model, lambda line: print(line, flush=True))
    lessons = expert.lessons0(args) if generation == 0 else None
    if lessons:
        def selfplay(teacher: str, games: int, seed: int, **kw: Any) -> Any:
            return _dday.selfplay(teacher, games, seed, threads=args.threads, **kw)

        data = expert.play_lessons(lessons, seed, args.teacher0_budget, selfplay)
    elif generation == 0:
        data = _dday.selfplay("search", args.games0, seed, budget=args.teacher0_budget, threads=args.threads,
                              opponents=expert.opponents(args, 0), opponent_budget=args.teacher0_budget)
    else:
        data = _dday.selfplay("network_search", args.games, seed, budget=args.budget, network=str(net_path),
                              threads=args.threads, opponents=expert.opponents(args, generation),
                              opponent_budget=args.budget)
    return expert.one_hot(data)


def teacher_name(args: Any, generation: int) -> str:
    if generation == 0 and args.distill:
        return f"distill {' '.join(args.distill)} with the --init network"
    return f"network_search@{args.budget}" if generation > 0 else f"search@{args.teacher0_budget}"


def _evaluate(agent: str, opponents: Any, episodes: int, seed: int, budget: int) -> Any:
    from maquis.dday import evaluate

    return evaluate(agent, side="both", opponents=opponents, episodes=episodes, seed=seed, budget=budget)


def _game() -> expert.ExpertGame:
    from maquis.dday.agents import load_network
    from maquis.dday.network import network_file_metadata
    from maquis.dday.tournament import GAME as LADDER

    return expert.ExpertGame(PROG, "dday1944", ("resistance", "german"), _dday.OBSERVATION_SIZE, _dday.NUM_ACTIONS,
                             play, _evaluate, load_network, network_file_metadata, teacher_name,
                             positive=("distill_games",), ladder=LADDER)


def evaluate_generation(args: Any, net_path: Path) -> list[dict[str, Any]]:
    """`network` (and `network_search`) of `net_path` against each evaluation opponent, both seats."""
    return expert.evaluate_generation(_game(), args, net_path)


def run(args: Any) -> int:
    if args.recipe:
        return dday_recipe.run(args)
    if args.distill:
        from maquis.dday.train.distill import parse_distill

        if args.teacher0 or args.opponents0:
            print(f"{PROG}: --distill makes generation 0 itself: give it or --teacher0 / --opponents0, not both",
                  file=sys.stderr)
            return 2
        if not args.init:
            print(f"{PROG}: --distill needs --init (the network it starts from, and the `network` opponent)",
                  file=sys.stderr)
            return 2
        try:
            parse_distill(args.distill)
        except ValueError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            return 2
    return expert.run(_game(), args)


__all__ = ["add_arguments", "run", "play", "evaluate_generation", "CURVE_FIELDS"]
