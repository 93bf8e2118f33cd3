"""The bundled opponents of the two-player games (their RULES D1: `random`, `heuristic`, `search`)
as Python policies over a side's observation and legal mask, written once over each game's Rust
`Agent` class (`_core.<game>.Agent`). A game's `agents` module names its classes and supplies its
tables and the conversion of its observations to float32."""

from __future__ import annotations

import numbers
from typing import Any, Callable, ClassVar

import numpy as np

__all__ = ["BundledAgent", "agent_seed", "check_budget"]


def agent_seed(seed: Any) -> int:
    """An agent's stream seed: `seed` checked, or one drawn from OS entropy for None."""
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be a non-negative int or None, got {type(seed).__name__} {seed!r:.80}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int in [0, 2**64), got {seed}")
    return int(seed)


def check_budget(budget: Any) -> int:
    """A search budget (simulations per decision): a positive int."""
    if isinstance(budget, (bool, np.bool_)) or not isinstance(budget, numbers.Integral):
        raise TypeError(f"budget must be a positive int, got {type(budget).__name__} {budget!r:.80}")
    if not 1 <= budget < 2**32:
        raise ValueError(f"budget must be a positive int, got {budget}")
    return int(budget)


def _checked(x: Any, batch: bool, kinds: str, kind_error: str, what: str, size: int) -> np.ndarray:
    """`x` as an array of one row (a batch of rows) of `size` values whose dtype kind is one of
    `kinds`; a TypeError (`kind_error`) or a ValueError naming the shape otherwise."""
    a = np.asarray(x)
    if a.dtype.kind not in kinds:
        raise TypeError(f"{kind_error}, got dtype {a.dtype}")
    if a.ndim != (2 if batch else 1) or a.shape[-1] != size:
        raise ValueError(f"{what} must have shape {f'(n, {size})' if batch else f'({size},)'}, got {a.shape}")
    return a


class BundledAgent:
    """A bundled level (`_id`) of the game of `_tables` (its module of the extension: `Agent`,
    `OBSERVATION_SIZE`, `NUM_ACTIONS`), with its own seeded stream. `act` and `act_batch` take
    the observations as the game's environments give them (`_float32` converts them)."""

    _id: ClassVar[str] = ""
    _tables: ClassVar[Any]
    #: The game's conversion of observations to float32 (uint8 rows by their divisors).
    _float32: ClassVar[Callable[[Any], np.ndarray]] = staticmethod(np.asarray)

    def __init__(self, seed: int | None = None, budget: int | None = None) -> None:
        args = (self._id, agent_seed(seed)) + (() if budget is None else (check_budget(budget),))
        self._core = self._tables.Agent(*args)

    def _obs(self, obs: Any, batch: bool) -> np.ndarray:
        a = _checked(obs, batch, "fiub", "observations must be numeric arrays", "observations",
                     self._tables.OBSERVATION_SIZE)
        return np.ascontiguousarray(type(self)._float32(a), dtype=np.float32)

    def _mask(self, mask: Any, batch: bool) -> np.ndarray:
        return np.ascontiguousarray(
            _checked(mask, batch, "iub", "masks must be int8 or bool arrays", "masks", self._tables.NUM_ACTIONS) != 0
        )

    def act(self, obs: Any, mask: Any) -> int:
        """A legal action for `obs` (the observation of the side played) and `mask` (int8 or bool)."""
        return int(self._core.act(self._obs(obs, False), self._mask(mask, False)))

    def act_batch(self, obs: Any, masks: Any) -> np.ndarray:
        """One action per row, np.int64 (n,), in row order from the agent's stream."""
        o, m = self._obs(obs, True), self._mask(masks, True)
        if o.shape[0] != m.shape[0]:
            raise ValueError(f"obs and masks must have the same number of rows, got {o.shape[0]} and {m.shape[0]}")
        return self._core.act_batch(o, m)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
