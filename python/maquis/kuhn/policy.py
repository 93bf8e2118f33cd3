"""A trained Kuhn poker policy file: the `maquis-mlp-v1` numpy MLP of `maquis.common.policy`,
checked against the Kuhn spaces (13 observations, 2 actions)."""

from __future__ import annotations

from typing import Any

from .._core import kuhn as _kuhn
from ..common.policy import NumpyMLPPolicy, load_game_policy
from ._common import observation_float32


def load_policy(path: Any, deterministic: bool | None = None, seed: int = 0) -> NumpyMLPPolicy:
    """The policy saved at `path`, with `act(obs, mask) -> int`; a ValueError naming the file
    when it is missing, not a policy, or made for other spaces."""
    return load_game_policy(path, deterministic, seed, (_kuhn.OBSERVATION_SIZE, _kuhn.NUM_ACTIONS), observation_float32)
