"""`KuhnVectorEnv`: many Kuhn poker hands stepped together in Rust (`maquis._core.kuhn.VecEngine`,
the bundled opponents inside, the GIL released), as a `gymnasium.vector.VectorEnv`: the shared
`maquis.common.vector.GameVectorEnv` with Kuhn's keywords."""

from __future__ import annotations

from typing import Any

from gymnasium.vector import AutoresetMode

from .._core import kuhn as _kuhn
from ..common.observation import check_observation_dtype
from ..common.vector import GameVectorEnv
from ._common import RENDER_MODES, engine_kwargs, observation_space, render_state


class KuhnVectorEnv(GameVectorEnv):
    """`num_envs` Kuhn poker hands, each a learner against a bundled opponent, stepped in Rust.

    Keywords: `num_envs`, `num_threads`, `autoreset_mode`, `copy`, and the single env's `side`,
    `opponent` (a bundled id), `reward`, `illegal_action`, `render_mode`, `observation_dtype`.
    `reset(seed=s)`: env `i` plays the hands of `KuhnEnv(...).reset(seed=maquis.sub_env_seed(s, i))`;
    `options` hold `cards` for the environments reset now and `reset_mask`. `step(actions)`:
    observations (num_envs, 13), rewards, terminated, truncated (always False), vector infos
    `action_mask` (num_envs, 2), `outcome` and `illegal_action` where a hand ended.
    """

    _tables = _kuhn
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1, "autoreset_mode": AutoresetMode.NEXT_STEP}
    _observation_space = staticmethod(observation_space)
    _render_state = staticmethod(render_state)

    def __init__(
        self,
        num_envs: int = 1,
        *,
        num_threads: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        side: str = "first",
        opponent: Any = "heuristic",
        reward: Any = None,
        illegal_action: str = "terminate",
        render_mode: str | None = None,
        observation_dtype: str = "float32",
    ) -> None:
        observation_dtype = check_observation_dtype(observation_dtype)
        self._check_versus(num_envs, num_threads, render_mode, opponent, "maquis.kuhn.KuhnEnv")
        kwargs = engine_kwargs(side, opponent, reward, illegal_action)
        self._start(num_envs, num_threads, autoreset_mode, kwargs,
                    render_mode=render_mode, observation_dtype=observation_dtype, copy=copy)
