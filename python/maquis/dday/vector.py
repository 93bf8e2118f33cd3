"""`DDayVectorEnv`: many D-Day learner-against-opponent games stepped together in Rust
(`maquis._core.dday.VecEngine`, the bundled opponents inside, the GIL released), as a
`gymnasium.vector.VectorEnv`. The batch contract (seeding, autoreset, infos, copy) is
`maquis.MaquisVectorEnv`'s: both are `maquis.common.vector.GameVectorEnv`s."""

from __future__ import annotations

from gymnasium.vector import AutoresetMode

from .._core import dday as _dday
from ..common.vector import GameVectorEnv
from .game import GAME
from ._common import RENDER_MODES, engine_kwargs, observation_space, render_state


class DDayVectorEnv(GameVectorEnv, keywords=GAME.keywords):
    """`num_envs` D-Day games, each a learner against a bundled opponent, stepped in Rust.

    Keywords: `num_envs`, `num_threads`, `autoreset_mode` (`NEXT_STEP` default, `SAME_STEP`,
    `DISABLED`), `copy`, and the single env's `side`, `opponent` (a bundled id: an object is a
    ValueError), `opponent_kwargs`, `reward`, `illegal_action`, `render_mode`, and
    `observation_dtype` ("float32", the default, or "uint8": each feature's count, exact, in a
    quarter of the bytes, as for `maquis.MaquisVectorEnv`).

    - `reset(seed=s)`: env `i` plays the episodes of
      `DDayEnv(...).reset(seed=maquis.dday.sub_env_seed(s, i))` (a hash of both: vectors seeded
      `s`, `s + 1`, ... share no stream), for any `num_threads`; `options` hold `allocation`, `attack`, `first`, `dice` for the environments
      reset now, and `reset_mask` (bool (num_envs,)) to reset a subset; other keys are errors.
    - `step(actions)`: observations float32 (num_envs, 380) (uint8 with `observation_dtype="uint8"`), rewards float32, terminated and
      truncated bool (truncated always False); infos are vector infos: `action_mask` int8
      (num_envs, 191) always, `outcome` ("win"/"draw"/"loss") and `illegal_action` for the
      environments whose episode ended.
    - `action_masks()` bool (num_envs, 191); `sample_actions()` int64 (num_envs,) drawn in Rust.
    """

    _tables = _dday
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1, "autoreset_mode": AutoresetMode.NEXT_STEP}
    _observation_space = staticmethod(observation_space)
    _render_state = staticmethod(render_state)
    _engine_kwargs = staticmethod(engine_kwargs)
    _single_env_name = "maquis.dday.DDayEnv"
