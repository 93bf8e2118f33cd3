"""The solitaire's saved policies: the `maquis-mlp-v1` numpy MLP of `maquis.common.policy`, checked
against the Maquis spaces (`OBS_SIZE` observations, `NUM_ACTIONS` actions) and reading its uint8
observations exactly (`observation_float32`)."""

from __future__ import annotations

from ..common.policy import (  # noqa: F401 - the format's names, re-exported
    POLICY_FORMAT,
    NumpyMLPPolicy,
    masked_probabilities,
    sample_rows,
    save_policy,
)
from ..common.policy import load_policy as _load_mlp
from .observation import observation_float32


def load_policy(path, deterministic=None, seed=0, spaces=None):
    """Loads a `maquis-mlp-v1` .npz policy (numpy only); checks it fits this build's spaces:
    `spaces` = (observation size, number of actions), the Maquis game's when None."""
    if spaces is None:
        from .._core.maquis import NUM_ACTIONS, OBS_SIZE

        spaces = (OBS_SIZE, NUM_ACTIONS)
    return _load_mlp(path, deterministic, seed, spaces, observation_float32)
