"""A trained D-Day policy file: the `maquis-mlp-v1` numpy MLP of `maquis.common.policy` (what
`examples/dday_ppo.py` saves), checked against the D-Day spaces (380 observations, 191 actions),
so that `maquis dday eval --policy FILE` and `maquis.dday.evaluate(FILE)` can play it."""

from __future__ import annotations

from typing import Any

from .._core import dday as _dday
from ..common.policy import NumpyMLPPolicy, load_game_policy


def load_policy(path: Any, deterministic: bool | None = None, seed: int = 0) -> NumpyMLPPolicy:
    """The policy saved at `path`, with `act(obs, mask) -> int`; a ValueError naming the file
    when it is missing, not a policy, or made for other spaces."""
    return load_game_policy(path, deterministic, seed, (_dday.OBSERVATION_SIZE, _dday.NUM_ACTIONS))
