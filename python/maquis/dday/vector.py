"""`DDayVectorEnv`: many D-Day learner-against-opponent games stepped together in Rust
(`maquis._core.dday.VecEngine`, the bundled opponents inside, the GIL released), as a
`gymnasium.vector.VectorEnv`. The batch contract (seeding, autoreset, infos, copy) is
`maquis.MaquisVectorEnv`'s, whose Python layer this class shares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .._core import dday as _dday
from ..vector import _MODES, MAX_ENVS, MAX_THREADS, MaquisVectorEnv, _autoreset_mode
from ._common import RENDER_MODES, budget_of, check_render_mode, check_side, render, reward_kwargs


class DDayVectorEnv(MaquisVectorEnv):
    """`num_envs` D-Day games, each a learner against a bundled opponent, stepped in Rust.

    Keywords: `num_envs`, `num_threads`, `autoreset_mode` (`NEXT_STEP` default, `SAME_STEP`,
    `DISABLED`), `copy`, and the single env's `side`, `opponent` (a bundled id: an object is a
    ValueError), `opponent_kwargs`, `reward`, `illegal_action`, `render_mode`.

    - `reset(seed=s)`: env `i` plays the episodes of `DDayEnv(...).reset(seed=s + i)`, for any
      `num_threads`; `options` hold `allocation`, `attack`, `first`, `dice` for the environments
      reset now, and `reset_mask` (bool (num_envs,)) to reset a subset; other keys are errors.
    - `step(actions)`: observations float32 (num_envs, 380), rewards float32, terminated and
      truncated bool (truncated always False); infos are vector infos: `action_mask` int8
      (num_envs, 191) always, `outcome` ("win"/"draw"/"loss") and `illegal_action` for the
      environments whose episode ended.
    - `action_masks()` bool (num_envs, 191); `sample_actions()` int64 (num_envs,) drawn in Rust.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        *,
        num_threads: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        side: str = "resistance",
        opponent: Any = "heuristic",
        opponent_kwargs: Mapping[str, Any] | None = None,
        reward: Any = None,
        illegal_action: str = "terminate",
        render_mode: str | None = None,
    ) -> None:
        for name, value, limit in (("num_envs", num_envs, MAX_ENVS), ("num_threads", num_threads, MAX_THREADS)):
            if value is None and name == "num_threads":
                continue
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"{name} must be a positive int, got {type(value).__name__} {value!r:.80}")
            if not 1 <= value <= limit:
                raise ValueError(f"{name} must be an int from 1 to {limit} (num_threads None: one per core), got {value!r}")
        check_render_mode(render_mode)
        check_side(side)
        if not isinstance(opponent, str):
            raise ValueError(
                f"the vector env's opponent must be a bundled id ('random', 'heuristic', 'search'), not a "
                f"{type(opponent).__name__}: Python objects can only play in maquis.dday.DDayEnv"
            )
        if not isinstance(illegal_action, str):
            raise TypeError(f"illegal_action must be 'terminate' or 'raise', got {type(illegal_action).__name__}")
        mode = _autoreset_mode(autoreset_mode)
        self._core = _dday.VecEngine(
            int(num_envs),
            int(num_threads or 0),
            _MODES[mode],
            side=side,
            opponent=opponent,
            budget=budget_of(opponent, opponent_kwargs),
            illegal_action=illegal_action,
            **reward_kwargs(reward),
        )
        self.num_envs = int(num_envs)
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.render_mode = render_mode
        n, o = self.num_envs, _dday.OBSERVATION_SIZE
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(o,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(_dday.NUM_ACTIONS)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(n, o), dtype=np.float32)
        self.action_space = batch_space(self.single_action_space, n)
        self._obs = self._core.observations
        self._masks = self._core.masks
        self._masks_i8 = self._masks.view(np.int8)
        self._rewards = self._core.rewards
        self._terminated = self._core.terminated
        self._truncated = self._core.truncated
        self._outcomes = self._core.outcomes
        self._illegal = self._core.illegal
        self._final_obs = self._core.final_observations
        self._all_true = np.ones(n, dtype=bool)
        self._all_true.flags.writeable = False
        self._outcome_info = self._core.outcome_info
        self._same_step = self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        self._seeded = np.zeros(n, dtype=bool)
        self._ready = False
        self._action_shape = (n,)
        self._step_plain = self._core.step_plain
        self.copy = copy

    def render(self) -> tuple[Any, ...] | None:
        """One render per environment (see `DDayEnv.render`)."""
        if self.render_mode is None:
            return render({}, None)
        return tuple(render(self._core.state_dict(i), self.render_mode) for i in range(self.num_envs))
