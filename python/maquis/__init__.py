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
- `sub_env_seed(seed, i)`: the single-env seed that replays sub-env `i` of a vector env reset
  with `seed` (a hash of both, for every game).
- `maquis.agents`, `maquis.evaluate(...)`: bundled agents and evaluation (loaded on first use).
"""

from __future__ import annotations

from ._core import IllegalActionError, MaquisError, __version__
from ._core.maquis import (
    ACTION_NAMES,
    NUM_ACTIONS,
    OBS_SIZE,
    OBSERVATION_LAYOUT,
    OUTCOMES,
    action_from_str,
    action_to_str,
)
from .common.registration import lazy_attributes, register_game
from .common.seeding import sub_env_seed
from .env import MaquisEnv
from .observation import OBS_HIGH_UINT8, OBSERVATION_DIVISOR, OBSERVATION_SCALE, observation_float32
from .vector import MaquisVectorEnv
from .wrappers import ActionMaskObservation, VectorActionMaskObservation, action_masks

ENV_ID = "maquis/Maquis-v0"

register_game(ENV_ID, MaquisEnv, MaquisVectorEnv)
# D-Day 1944 (`maquis.dday`) and Maurice Lite (`maquis.maurice`), registered here too so that
# `gym.make` finds them after `import maquis`;
# the entry points are imported on first use.
register_game("maquis/DDay1944-v0", "maquis.dday.single:DDayEnv", "maquis.dday.vector:DDayVectorEnv")
register_game("maquis/MauriceLite-v0", "maquis.maurice.single:MauriceEnv", "maquis.maurice.vector:MauriceVectorEnv")

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
    "ladder",
    "rate",
    "sub_env_seed",
]


# Loaded on first use, so that `import maquis` works (and stays fast) without them. The function
# `evaluate` lives in `.evaluation`: no submodule of that name rebinds it.
__getattr__ = lazy_attributes(__name__, {"agents": ".agents", "dday": ".dday", "maurice": ".maurice", "evaluate": ".evaluation:evaluate", "ladder": ".tournament:ladder", "rate": ".tournament:rate"})
