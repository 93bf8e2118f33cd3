"""``maquis dday bench``: how fast D-Day 1944 plays (the shared measurements of
``maquis.common.bench``).

1. The engine at random play on one core: ``DDayVectorEnv`` with one thread, a random learner
   (``sample_actions``, drawn in Rust) against the ``random`` opponent, so that nothing but the
   engine runs per decision; reported as games/s and decisions/s (both sides' decisions, the
   count per game measured on the same seeds through the AEC env).
2. The vector env as training uses it: each of ``--envs`` environments on each of ``--threads``
   threads with the ``heuristic`` opponent inside, learner steps/s.

Every figure is the median of ``--repeats`` timed repeats of about ``--seconds`` each.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..common import bench as common_bench
from ..common.cli import add_bench_arguments, add_seed


def decisions_per_game(games: int, seed: int) -> float:
    """Mean decisions (both sides) of random-vs-random games, through the AEC env."""
    from . import raw_env

    return common_bench.decisions_per_game(raw_env, games, seed)["all"]


def vector_rate(num_envs: int, threads: int, opponent: str, seconds: float, seed: int, repeats: int = 1) -> dict[str, Any]:
    """Learner steps/s and finished games/s of the vector env stepped with random legal actions
    (the medians of `repeats` runs of about `seconds`)."""
    return common_bench.vector_rate(_make_vec, num_envs, threads, opponent, seconds, seed, repeats)


def _make_vec(n: int, t: int, opp: str) -> Any:
    from . import DDayVectorEnv

    return DDayVectorEnv(num_envs=n, num_threads=t, side="resistance", opponent=opp)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_bench_arguments(p)
    add_seed(p, "seed of the games")


def run(args: argparse.Namespace) -> int:
    from . import raw_env
    from .tournament import VERSUS

    return common_bench.run_versus_bench(args, raw_env, _make_vec, versus=VERSUS)
