"""`MauriceVectorEnv`: many Maurice Lite learner-against-opponent games stepped together in Rust
(`maquis._core.maurice.VecEngine`, the bundled opponents inside, the GIL released), as a
`gymnasium.vector.VectorEnv`. The batch contract (seeding, autoreset, infos, copy) is
`maquis.MaquisVectorEnv`'s: both are `maquis.common.vector.GameVectorEnv`s."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from .._core import maurice as _maurice
from ..common.vector import GameVectorEnv
from .game import GAME
from ._common import (
    OBSERVATION_SIZES,
    RENDER_MODES,
    MauriceKeywords,
    observation_space,
    render_state,
    with_defaults,
)


class MauriceVectorEnv(MauriceKeywords, GameVectorEnv, keywords=GAME.keywords):
    """`num_envs` Maurice Lite games, each a learner against a bundled opponent, stepped in Rust.

    Keywords: `num_envs`, `num_threads`, `autoreset_mode` (`NEXT_STEP` default, `SAME_STEP`,
    `DISABLED`), `copy`, and the single env's `side`, `opponent` (a bundled id: an object is a
    ValueError), `opponent_kwargs`, `scenario`, `terrain`, `observation` ("full" or "compact"),
    `reward`, `illegal_action`, `render_mode`, `observation_dtype` ("float32", the default, or
    "uint8": each feature's count, exact, in a quarter of the bytes) and `shaping` (the single
    env's potential-based shaping, computed in the Rust step; the `shaping` property gives it).

    - `reset(seed=s)`: env `i` plays the episodes of `MauriceEnv(...).reset(seed=maquis.sub_env_seed(s, i))`,
      for any `num_threads`; `options` hold the reset options of `MauriceEnv` but `side` and
      `opponent`, for the environments reset now, and `reset_mask` (bool (num_envs,)) to reset a
      subset; other keys are errors.
    - `step(actions)`: observations float32 (num_envs, 21334) (1084 compact; uint8 with
      `observation_dtype="uint8"`), rewards float32, terminated and truncated bool (truncated
      always False); infos are vector infos: `action_mask` int8 (num_envs, 1447) always, `outcome`
      ("win"/"draw"/"loss") and `illegal_action` for the environments whose episode ended.
    - `action_masks()` bool (num_envs, 1447); `sample_actions()` int64 (num_envs,) drawn in Rust.

    The bundled opponents decide as from their full observation, whatever `observation` is. The
    engine keeps full rows, updated in place (the maps' cells rewritten only where units moved);
    with `observation="compact"` the env hands out their first 1084 columns.

    Version History: v0 (`maquis/MauriceLite-v0`), as `MauriceEnv`.
    """

    _tables = _maurice
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2, "autoreset_mode": AutoresetMode.NEXT_STEP}
    _render_state = staticmethod(render_state)

    _single_env_name = "maquis.maurice.MauriceEnv"

    def _started(self, keywords: dict[str, Any]) -> None:
        if self.observation == "compact":
            # Views of the engine's rows (no copy); the plain steps hand them out from now on.
            size = OBSERVATION_SIZES["compact"]
            self._obs = self._obs[:, :size]
            self._final_obs = self._final_obs[:, :size]
            self._step_copy = self._step_copy_compact
            self.copy = self.copy

    def _observation_space(self, dtype: str, shape: tuple[int, ...] | None = None) -> spaces.Box:  # type: ignore[override]
        return observation_space(dtype, self.observation, shape)

    def _step_copy_compact(self, actions: np.ndarray) -> tuple[Any, ...]:
        obs, masks, ended, illegal = self._core.step_copy(actions)
        return np.ascontiguousarray(obs[:, : OBSERVATION_SIZES["compact"]]), masks, ended, illegal

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(options, Mapping) and any(k != "reset_mask" for k in options):
            options = with_defaults(options, self.scenario, self.terrain)
        return super().reset(seed=seed, options=options)
