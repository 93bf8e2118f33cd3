"""Expert iteration for Maurice Lite: `maquis maurice train` (the shared `maquis.train.iteration`).

Generation 0: D1 `search` plays both sides of `--games0` games (or, with `--opponents0`, one side
against bundled levels in turn); later generations `network_search` with the previous generation's
network (`--opponents` likewise). Game k of a generation is played on
`--scenarios`[k % n] with the scenario's terrain; the samples are the side to move's compact
observation (the network's input, `maquis.maurice.network`), the legal mask, the teacher's move
and the game's result for that side. The curve's games are on the standard scenario.
`--maps 32,32` trains a network that also reads the 15 map planes, through a convolution stem of
those channels (3 x 3, strides 3 then 2; `maquis.train.model.MapStem`, the Rust `nn::maps`); its
samples keep their planes packed (`selfplay(..., maps=True)`).
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
    p.add_argument("--maps", default="", metavar="C1,C2",
                   help="channels of a convolution stem over the 15 map planes (3 x 3, strides 3 then 2), e.g. "
                        "32,32; default: none, the MLP over the compact observation. With --init of a network "
                        "without a stem, the stem is grafted on, its weights into the trunk starting at zero")


#: The map stem's strides and padding per layer: the first tiles the 45 x 30 cells in 3 x 3
#: patches (one patch per cell reached, so its cost is the planes' non-zero cells), the others
#: halve the 15 x 10 grid.
def map_stem_layout(layers: int) -> dict[str, Any]:
    """The `maps` metadata of a stem of `layers` convolutions over Maurice's planes."""
    return {"at": _maurice.COMPACT_OBSERVATION_SIZE, "planes": [len(_maurice.PLANES), _maurice.HEIGHT, _maurice.WIDTH],
            "strides": [3] + [2] * (layers - 1), "padding": [0] + [1] * (layers - 1)}


def parse_map_channels(text: str) -> tuple[int, ...]:
    """A `--maps` value as channel counts (empty: no stem); ValueError naming the flag when
    malformed."""
    try:
        channels = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        channels = (0,)
    if any(c < 1 for c in channels):
        raise ValueError(f"--maps must be comma-separated positive channel counts, e.g. 32,32, got {text!r}")
    return channels


def map_channels(args: Any) -> tuple[int, ...]:
    """`args.maps` as channel counts; SystemExit naming the flag when malformed."""
    try:
        return parse_map_channels(getattr(args, "maps", "") or "")
    except ValueError as e:
        raise SystemExit(f"{PROG}: {e}") from None


def new_model(args: Any, hidden: tuple[int, ...]) -> Any:
    """The run's fresh network: the MLP over the compact observation, or with `--maps` a stem over
    the map planes and the MLP over both."""
    from maquis.train.model import MapStem, PolicyValueNet

    channels = map_channels(args)
    if not channels:
        return PolicyValueNet(hidden, "observation", _maurice.COMPACT_OBSERVATION_SIZE, _maurice.NUM_ACTIONS)
    stem = MapStem(map_stem_layout(len(channels)), channels, (3,) * len(channels))
    return PolicyValueNet(hidden, "maps", _maurice.OBSERVATION_SIZE, _maurice.NUM_ACTIONS, maps=stem)


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
    # A network with a map stem learns from the samples' planes too.
    maps = getattr(model, "maps", None) is not None
    if lessons:
        def selfplay(teacher: str, games: int, seed: int, **kw: Any) -> Any:
            return _maurice.selfplay(teacher, games, seed, scenarios=scenarios, threads=args.threads, maps=maps, **kw)

        data = expert.play_lessons(lessons, seed, args.teacher0_budget, selfplay)
    elif generation == 0:
        data = _maurice.selfplay("search", args.games0, seed, budget=args.teacher0_budget, scenarios=scenarios,
                                 threads=args.threads, opponents=expert.opponents(args, 0),
                                 opponent_budget=args.teacher0_budget, maps=maps)
    else:
        data = _maurice.selfplay("network_search", args.games, seed, budget=args.budget, network=str(net_path),
                                 scenarios=scenarios, threads=args.threads,
                                 opponents=expert.opponents(args, generation), opponent_budget=args.budget, maps=maps)
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
                             ladder=LADDER, new_model=new_model)


def run(args: Any) -> int:
    if getattr(args, "recipe", None):
        from maquis.maurice.train import recipe

        return recipe.run(args)
    _scenarios(args)
    map_channels(args)
    return expert.run(game(), args)


__all__ = ["add_arguments", "run", "play", "game", "new_model", "map_stem_layout", "PROG"]
