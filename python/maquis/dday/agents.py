"""`maquis.dday.agents`: the bundled D-Day opponents (RULES D1) as policies over a side's
observation and legal mask. They read nothing but the observation (D3) and their own seeded
stream; the heuristic and the search run in Rust."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._core import dday as _dday

__all__ = ["RandomAgent", "HeuristicAgent", "SearchAgent"]


def _seed(seed: Any) -> int:
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be a non-negative int or None, got {type(seed).__name__} {seed!r:.80}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int in [0, 2**64), got {seed}")
    return int(seed)


def _obs(obs: Any, batch: bool) -> np.ndarray:
    a = np.asarray(obs)
    if a.dtype.kind not in "fiub":
        raise TypeError(f"observations must be numeric arrays, got dtype {a.dtype}")
    want = 2 if batch else 1
    if a.ndim != want or a.shape[-1] != _dday.OBSERVATION_SIZE:
        shape = "(n, 380)" if batch else "(380,)"
        raise ValueError(f"observations must have shape {shape}, got {a.shape}")
    return np.ascontiguousarray(a, dtype=np.float32)


def _mask(mask: Any, batch: bool) -> np.ndarray:
    a = np.asarray(mask)
    if a.dtype.kind not in "iub":
        raise TypeError(f"masks must be int8 or bool arrays, got dtype {a.dtype}")
    want = 2 if batch else 1
    if a.ndim != want or a.shape[-1] != _dday.NUM_ACTIONS:
        shape = "(n, 191)" if batch else "(191,)"
        raise ValueError(f"masks must have shape {shape}, got {a.shape}")
    return np.ascontiguousarray(a != 0)


class _Bundled:
    _id = ""

    def __init__(self, seed: int | None = None, budget: int = 200) -> None:
        self._core = _dday.Agent(self._id, _seed(seed), budget)

    def act(self, obs: Any, mask: Any) -> int:
        """A legal action for `obs` (the 380-vector of the side played) and `mask` (int8 or bool)."""
        return int(self._core.act(_obs(obs, False), _mask(mask, False)))

    def act_batch(self, obs: Any, masks: Any) -> np.ndarray:
        """One action per row, np.int64 (n,), in row order from the agent's stream."""
        o, m = _obs(obs, True), _mask(masks, True)
        if o.shape[0] != m.shape[0]:
            raise ValueError(f"obs and masks must have the same number of rows, got {o.shape[0]} and {m.shape[0]}")
        return self._core.act_batch(o, m)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomAgent(_Bundled):
    """D1 `random`: a uniformly random legal action."""

    _id = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)


class HeuristicAgent(_Bundled):
    """D1 `heuristic`: fixed rules of thumb (RULES D1), in Rust."""

    _id = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)


class SearchAgent(_Bundled):
    """D1 `search`: information-set Monte Carlo over the allocations consistent with what the side
    has seen, `budget` heuristic playouts per searched decision (the attack, the order, the re-rolls
    and the Resistance's skirmish actions; the heuristic plays the rest), in Rust."""

    _id = "search"

    def __init__(self, budget: int = 200, seed: int | None = None) -> None:
        if isinstance(budget, (bool, np.bool_)) or not isinstance(budget, numbers.Integral):
            raise TypeError(f"budget must be a positive int, got {type(budget).__name__} {budget!r:.80}")
        if not 1 <= budget < 2**32:
            raise ValueError(f"budget must be a positive int, got {budget}")
        super().__init__(seed, int(budget))
        self.budget = int(budget)

    def __repr__(self) -> str:
        return f"SearchAgent(budget={self.budget})"
