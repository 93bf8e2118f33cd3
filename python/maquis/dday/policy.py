"""A trained D-Day policy file: the `maquis-mlp-v1` numpy MLP of `maquis.policy` (what
`examples/dday_ppo.py` saves), checked against the D-Day spaces (380 observations, 191 actions),
so that `maquis dday eval --policy FILE` and `maquis.dday.evaluate(FILE)` can play it."""

from __future__ import annotations

import zipfile
from typing import Any

from .._core import dday as _dday
from ..policy import NumpyMLPPolicy
from ..policy import load_policy as _load_mlp


def load_policy(path: Any, deterministic: bool | None = None, seed: int = 0) -> NumpyMLPPolicy:
    """The policy saved at `path`, with `act(obs, mask) -> int`; a ValueError naming the file
    when it is missing, not a policy, or made for other spaces."""
    try:
        return _load_mlp(path, deterministic, seed, spaces=(_dday.OBSERVATION_SIZE, _dday.NUM_ACTIONS))
    except (ValueError, OSError, KeyError, EOFError, zipfile.BadZipFile) as e:
        if isinstance(e, ValueError) and str(path) in str(e):
            raise  # already names the file (a wrong format or wrong spaces)
        raise ValueError(f"{path}: not a maquis-mlp-v1 policy file ({type(e).__name__}: {e})") from e
