"""maquis: the solitaire board game *Maquis* as a fast Gymnasium environment, with a Rust engine.

>>> import gymnasium as gym, maquis
>>> env = gym.make("maquis/Maquis-v0", difficulty="normal")
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(env.unwrapped.sample_action())

- `MaquisEnv`: one game (`gymnasium.Env`); `MaquisVectorEnv`: many, stepped in Rust
  (`gymnasium.vector.VectorEnv`, also `gymnasium.make_vec("maquis/Maquis-v0", num_envs=…)`).
- `ACTION_NAMES`, `action_to_str`, `action_from_str`: the flat action space of `NUM_ACTIONS` names.
- `OBSERVATION_LAYOUT`: `(name, offset, length)` of every slice of the `OBS_SIZE` observation;
  `OBSERVATION_DIVISOR` / `observation_float32`: the uint8 observation (`observation_dtype=`).
- `maquis.agents`, `maquis.evaluate(...)`: bundled agents and evaluation (loaded on first use).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

import gymnasium

from ._core import (
    ACTION_NAMES,
    NUM_ACTIONS,
    OBS_SIZE,
    OBSERVATION_LAYOUT,
    OUTCOMES,
    IllegalActionError,
    MaquisError,
    __version__,
    action_from_str,
    action_to_str,
)
from .env import MaquisEnv
from .observation import OBS_HIGH_UINT8, OBSERVATION_DIVISOR, OBSERVATION_SCALE, observation_float32
from .vector import MaquisVectorEnv
from .wrappers import ActionMaskObservation, VectorActionMaskObservation, action_masks

ENV_ID = "maquis/Maquis-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="maquis.env:MaquisEnv",
        vector_entry_point="maquis.vector:MaquisVectorEnv",
    )

# D-Day 1944 (`maquis.dday`), registered here too so that `gym.make` finds it after `import maquis`;
# the entry points are imported on first use.
if "maquis/DDay1944-v0" not in gymnasium.registry:
    gymnasium.register(
        id="maquis/DDay1944-v0",
        entry_point="maquis.dday.single:DDayEnv",
        vector_entry_point="maquis.dday.vector:DDayVectorEnv",
    )

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
    "ActionMaskObservation",
    "VectorActionMaskObservation",
    "IllegalActionError",
    "MaquisEnv",
    "MaquisError",
    "MaquisVectorEnv",
    "__version__",
    "action_from_str",
    "action_masks",
    "action_to_str",
    "agents",
    "evaluate",
]


def __getattr__(name: str) -> Any:
    # Loaded on first use, so that `import maquis` works (and stays fast) without them.
    if name == "agents":
        return importlib.import_module(".agents", __name__)
    if name == "dday":
        return importlib.import_module(".dday", __name__)
    if name == "evaluate":
        importlib.import_module(".evaluate", __name__)  # binds the function, see _Package
        return globals()["evaluate"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Package(types.ModuleType):
    """`maquis.evaluate` is the function `maquis.evaluate.evaluate` (API.md), even after an
    `import maquis.evaluate` somewhere has bound the submodule to this name; the submodule itself
    stays importable (`from maquis.evaluate import …`, `importlib.import_module`)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "evaluate" and isinstance(value, types.ModuleType) and callable(getattr(value, "evaluate", None)):
            value = value.evaluate
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
