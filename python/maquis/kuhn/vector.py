"""`KuhnVectorEnv`: many Kuhn poker hands stepped together in Rust (`maquis._core.kuhn.VecEngine`,
the bundled opponents inside, the GIL released), as a `gymnasium.vector.VectorEnv`: the shared
`maquis.common.vector.GameVectorEnv` with Kuhn's keywords."""

from __future__ import annotations

from gymnasium.vector import AutoresetMode

from .._core import kuhn as _kuhn
from ..common.vector import GameVectorEnv
from .game import GAME
from ._common import RENDER_MODES, engine_kwargs, observation_space, render_state


class KuhnVectorEnv(GameVectorEnv, keywords=GAME.keywords):
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
    _engine_kwargs = staticmethod(engine_kwargs)
    _single_env_name = "maquis.kuhn.KuhnEnv"
