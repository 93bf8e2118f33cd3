"""``maquis kuhn bench``: how fast Kuhn poker plays (the shared two-player measurements of
``maquis.common.bench``): the engine at random play on one thread, then the vector env with the
``heuristic`` opponent inside at each ``--envs`` x ``--threads``."""

from __future__ import annotations

import argparse
from typing import Any

from ..common import bench as common_bench
from ..common.cli import add_bench_arguments, add_seed


def _make_vec(n: int, t: int, opponent: str) -> Any:
    from .vector import KuhnVectorEnv

    return KuhnVectorEnv(num_envs=n, num_threads=t, opponent=opponent)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_bench_arguments(p)
    add_seed(p, "seed of the games")


def run(args: argparse.Namespace) -> int:
    from .aec import raw_env
    from .tournament import VERSUS

    return common_bench.run_versus_bench(args, raw_env, _make_vec, versus=VERSUS)
