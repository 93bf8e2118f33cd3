"""Action-mask conventions for RL libraries.

- `ActionMaskObservation(env)`: dict observations {"observation": float32 (OBS_SIZE,),
  "action_mask": int8 (217,)} (RLlib-style models that read the mask from the observation).
- `VectorActionMaskObservation(envs)`: the same for `MaquisVectorEnv` (batched).
- `action_masks(env)`: the bool mask of a (possibly wrapped) env, for sb3-contrib:
  `sb3_contrib.common.wrappers.ActionMasker(env, maquis.action_masks)`; `MaquisEnv` itself also
  has `action_masks()`, which `MaskablePPO` finds through `get_wrapper_attr`.

All three agree with `info["action_mask"]` and `env.legal_actions()`, and work the same on every
game's environments (D-Day's: `DDayEnv`, `DDayVectorEnv`).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv, VectorWrapper
from gymnasium.vector.utils import batch_space


def action_masks(env: gym.Env) -> np.ndarray:
    """The legal actions of `env` (a MaquisEnv, possibly wrapped) as np.bool_ (217,)."""
    return env.get_wrapper_attr("action_masks")()


def _dict_space(obs_space: spaces.Box, action_space: spaces.Discrete) -> spaces.Dict:
    return spaces.Dict({"observation": obs_space, "action_mask": spaces.MultiBinary(int(action_space.n))})


class ActionMaskObservation(gym.Wrapper):
    """Observations become {"observation": obs, "action_mask": info["action_mask"]} (int8); the
    info dict is unchanged."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.observation_space = _dict_space(env.observation_space, env.action_space)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        obs, info = self.env.reset(seed=seed, options=options)
        return {"observation": obs, "action_mask": info["action_mask"].copy()}, info

    def step(self, action: Any) -> tuple[dict, Any, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return {"observation": obs, "action_mask": info["action_mask"].copy()}, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, np.bool_ (217,)."""
        return action_masks(self.env)


class VectorActionMaskObservation(VectorWrapper):
    """The batched `ActionMaskObservation` for the native vector envs: {"observation": (n, OBS_SIZE) float32,
    "action_mask": (n, 217) int8}. With SAME_STEP autoreset, `infos["final_obs"]` keeps the
    plain observations."""

    def __init__(self, env: VectorEnv) -> None:
        super().__init__(env)
        self.single_observation_space = _dict_space(env.single_observation_space, env.single_action_space)
        self.observation_space = batch_space(self.single_observation_space, env.num_envs)

    def _masks(self) -> np.ndarray:
        return self.action_masks().view(np.int8)

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        obs, infos = self.env.reset(seed=seed, options=options)
        return {"observation": obs, "action_mask": self._masks()}, infos

    def step(self, actions: Any) -> tuple[dict, Any, Any, Any, dict]:
        obs, rewards, terminated, truncated, infos = self.env.step(actions)
        return {"observation": obs, "action_mask": self._masks()}, rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every environment, np.bool_ (num_envs, 217)."""
        env = self.env
        while not hasattr(env, "action_masks") and isinstance(env, VectorWrapper):
            env = env.env
        return env.action_masks()
