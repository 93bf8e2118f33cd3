"""maquis.maquis: *Maquis*, the solitaire board game, as a Gymnasium environment with a Rust engine.

Its names are also the package's own (`maquis.MaquisEnv` is `maquis.maquis.MaquisEnv`).

- `MaquisEnv`: one game (`gymnasium.Env`, `maquis/Maquis-v0`); `MaquisVectorEnv`: many, stepped
  in Rust (`gymnasium.vector.VectorEnv`).
- `ACTION_NAMES`, `action_to_str`, `action_from_str`: the flat action space of `NUM_ACTIONS` names.
- `OBSERVATION_LAYOUT`: `(name, offset, length)` of every slice of the `OBS_SIZE` observation;
  `OBSERVATION_DIVISOR` / `observation_float32`: the uint8 observation (`observation_dtype=`).
- `maquis.maquis.agents`, `evaluate(...)`, `ladder(...)`, `rate(...)`: bundled agents,
  evaluation and ratings (loaded on first use).
"""

from __future__ import annotations

from .._core import IllegalActionError, MaquisError
from .._core.maquis import (
    ACTION_NAMES,
    NUM_ACTIONS,
    OBS_SIZE,
    OBSERVATION_LAYOUT,
    OUTCOMES,
    action_from_str,
    action_to_str,
)
from ..common.registration import lazy_attributes
from .env import MaquisEnv
from .game import GAME
from .observation import OBS_HIGH_UINT8, OBSERVATION_DIVISOR, OBSERVATION_SCALE, observation_float32
from .vector import MaquisVectorEnv

ENV_ID = GAME.gym_id  # registered with Gymnasium by `import maquis`

__all__ = [
    "ACTION_NAMES",
    "ENV_ID",
    "NUM_ACTIONS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_DIVISOR",
    "OBSERVATION_SCALE",
    "OBS_HIGH_UINT8",
    "observation_float32",
    "OBS_SIZE",
    "OUTCOMES",
    "IllegalActionError",
    "MaquisEnv",
    "MaquisError",
    "MaquisVectorEnv",
    "action_from_str",
    "action_to_str",
    "agents",
    "evaluate",
    "ladder",
    "rate",
]

# Loaded on first use, so that `import maquis.maquis` stays fast without them. The function
# `evaluate` lives in `.evaluation`: no submodule of that name rebinds it.
__getattr__ = lazy_attributes(__name__, {"agents": ".agents", "evaluate": ".evaluation:evaluate", "ladder": ".tournament:ladder", "rate": ".tournament:rate"})
