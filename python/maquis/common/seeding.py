"""The seeds of a native vector env's sub-environments, shared by every game.

A vector env reset with `seed` gives sub-env `i` the single-env seed `sub_env_seed(seed, i)`: a
hash of (seed, i) by NumPy's `SeedSequence` spawning convention, never `seed + i`. Callers that
offset the seed themselves (RLlib's env runner `w` seeded `seed + w`, Gymnasium's `SyncVectorEnv`
seeding its env `j` with `seed + j`) then still get distinct deal streams: with a sum, runner
`w + 1`'s env `i` would replay runner `w`'s env `i + 1`.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["sub_env_seed", "sub_env_seeds"]


def _check(value: Any, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a non-negative int, got {type(value).__name__} {value!r:.80}")
    if value < 0:
        raise ValueError(f"{name} must be a non-negative int, got {value}")
    return int(value)


def sub_env_seed(seed: int, index: int) -> int:
    """The single-env seed whose `reset(seed=...)` replays sub-env `index` of a native vector env
    reset with `seed` (`MaquisVectorEnv`, `DDayVectorEnv`, ...: the same rule for every game and
    any `num_threads`): the first 64-bit word of `numpy.random.SeedSequence(seed,
    spawn_key=(index,))`, so that different (seed, index) pairs give unrelated streams.

    >>> import maquis
    >>> v = maquis.MaquisVectorEnv(4); e = maquis.MaquisEnv()
    >>> obs, _ = v.reset(seed=7)
    >>> bool((e.reset(seed=maquis.sub_env_seed(7, 2))[0] == obs[2]).all())
    True

    Raises TypeError / ValueError for a seed or index that is not a non-negative int."""
    seed, index = _check(seed, "seed"), _check(index, "index")
    return int(np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(1, np.uint64)[0])


def sub_env_seeds(seed: int, num_envs: int) -> list[int]:
    """`[sub_env_seed(seed, i) for i in range(num_envs)]`."""
    seed = _check(seed, "seed")
    return [int(np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, np.uint64)[0]) for i in range(num_envs)]
