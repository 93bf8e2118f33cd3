"""maquis: fast RL environments of board games with a Rust engine — *Maquis* (the solitaire,
Gymnasium), *D-Day 1944*, *Maurice Lite* and *Kuhn poker* (two-player, PettingZoo and Gymnasium;
Kuhn poker is the worked example of adding a game, with an exact best response).

>>> import gymnasium as gym, maquis
>>> env = gym.make("maquis/Maquis-v0", difficulty="normal")
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(env.unwrapped.sample_action())

Each game is a subpackage: `maquis.maquis`, `maquis.dday`, `maquis.maurice`, `maquis.kuhn`. The solitaire's names
are also the package's own (loaded on first use, so that `import maquis.dday` does not load it):

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

#: The games, each a subpackage `maquis.<key>` whose `game.py` declares it (`maquis.common.registry`).
#: The first game's verbs have the short form `maquis <verb>`.
GAMES = ("maquis", "dday", "maurice", "kuhn")

from typing import TYPE_CHECKING  # noqa: E402

from ._core import IllegalActionError, MaquisError, __version__  # noqa: E402
from .common.registration import alias_moved_modules, lazy_attributes, register_games  # noqa: E402
from .common.seeding import sub_env_seed  # noqa: E402
from .common.wrappers import ActionMaskObservation, VectorActionMaskObservation, action_masks  # noqa: E402

# Every game's Gymnasium id, so that `gymnasium.make` finds them after `import maquis`; the envs
# are imported when an id is made.
register_games()

# The solitaire's modules lived at the package root, its trainers and D-Day's in `maquis.train`:
# their old paths still import (user code, and pickles, which name a class by its module).
_ROOT_MODULES = ("agents", "bench", "bench_train", "curriculum", "docs", "env", "episode", "evaluation", "narrator",
                 "network", "observation", "play", "playthrough", "policy", "render", "replay", "shaping", "tables",
                 "tournament", "vector")
alias_moved_modules({
    **{f"{__name__}.{m}": f"{__name__}.maquis.{m}" for m in _ROOT_MODULES},
    f"{__name__}.wrappers": f"{__name__}.common.wrappers",
    f"{__name__}.train.expert": f"{__name__}.maquis.train.expert",
    f"{__name__}.train.dday": f"{__name__}.dday.train.expert",
    f"{__name__}.train.dday_distill": f"{__name__}.dday.train.distill",
    f"{__name__}.train.dday_ppo": f"{__name__}.dday.train.ppo",
    f"{__name__}.train.dday_recipe": f"{__name__}.dday.train.recipe",
})

_SOLITAIRE = ("ENV_ID", "ACTION_NAMES", "NUM_ACTIONS", "OBS_SIZE", "OBSERVATION_LAYOUT", "OUTCOMES", "OBSERVATION_DIVISOR",
              "OBSERVATION_SCALE", "OBS_HIGH_UINT8", "observation_float32", "action_from_str", "action_to_str",
              "MaquisEnv", "MaquisVectorEnv", "agents", "evaluate", "ladder", "rate")

if TYPE_CHECKING:  # what the lazy names are, for type checkers and the API reference
    from .maquis import (  # noqa: F401
        ACTION_NAMES,
        ENV_ID,
        NUM_ACTIONS,
        OBS_HIGH_UINT8,
        OBS_SIZE,
        OBSERVATION_DIVISOR,
        OBSERVATION_LAYOUT,
        OBSERVATION_SCALE,
        OUTCOMES,
        MaquisEnv,
        MaquisVectorEnv,
        action_from_str,
        action_to_str,
        agents,
        evaluate,
        ladder,
        observation_float32,
        rate,
    )

__all__ = [
    *_SOLITAIRE,
    "ActionMaskObservation",
    "VectorActionMaskObservation",
    "IllegalActionError",
    "MaquisError",
    "__version__",
    "action_masks",
    "sub_env_seed",
    "GAMES",
]


# Loaded on first use, so that `import maquis` works (and stays fast) without them, and a game's
# package loads no other game.
__getattr__ = lazy_attributes(__name__, {
    **{name: f".maquis:{name}" for name in _SOLITAIRE},
    **{game: f".{game}" for game in GAMES},
})
