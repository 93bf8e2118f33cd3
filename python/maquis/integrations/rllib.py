"""maquis under Ray RLlib's new API stack (RLModules, EnvRunners, Learners).

Importing this module does not import Ray: the Gymnasium wrappers below work without it, and Ray
is imported only by `register_envs`, `TwoPlayerMultiAgentEnv` and `multi_agent_config`.

Env creators
------------
One per registered game (`maquis.common.registry`), each a plain callable `creator(env_config) ->
env` as `ray.tune.registry.register_env` takes; `register_envs()` registers them all under the
names of `ENV_NAMES`: `"maquis-<Name>"` for the game of the Gymnasium id `maquis/<Name>-v0`
(`make_env`: its single env, or with `num_envs` its native vector env), and for a two-player game
also `"maquis-<Name>-MultiAgent"` (`make_multi_agent_env`: both sides agents). Each creator is
also reachable as `<game>_env_creator` / `<game>_multi_agent_creator` (`maquis_env_creator`,
`dday_env_creator`, `dday_multi_agent_creator`, ...).

`env_config` holds the env's keyword arguments (`difficulty`, `side`, `opponent`, `scenario`,
`observation`, `reward`, ...: the constructor's); RLlib adds `num_envs` when the runner builds a
vector env (`config.env_runners(gym_env_vectorize_mode="vector_entry_point")`): the creator then
returns the game's native vector env, stepped in Rust, with `num_threads` from `env_config`
(default 1). Without it (RLlib's default, `"sync"`) the creator returns one single env and
Gymnasium's `SyncVectorEnv` holds several.

Observations
------------
Every env's observation is `{"observations": <the game's observation>, "action_mask": float32
(NUM_ACTIONS,) of 0/1}`: the keys and dtype of RLlib's action-masking RLModule
(`ray.rllib.examples.rl_modules.classes.action_masking_rlm.ActionMaskingTorchRLModule`). The
mask leaves the infos (RLlib keeps every step's infos in its episodes).

Seeding
-------
RLlib resets env runner `w`'s envs with the seed `seed + w` (`config.debugging(seed=...)`), and
Gymnasium's `SyncVectorEnv` gives its env `j` the seed `seed + w + j`: runner `w + 1`'s env `j`
would replay runner `w`'s env `j + 1` deal for deal (4 runners x 8 envs play 11 streams, not 32).
Every env here instead resets with `rllib_seed(s, worker_index, vector_index)`: a hash of the seed
it is given and of the `EnvContext`'s indices through NumPy's `SeedSequence`. For one run (one
`seed`) the pairs (seed + w + j, w) differ for every runner and env, so no two envs of the run
share a deal stream whatever the runner and env counts; a native vector env then gives its
sub-env `i` the stream of `maquis.sub_env_seed(rllib_seed(...), i)` (in RLlib's
`vector_entry_point` mode the runner hands the creator a plain dict without its indices; the seed
`seed + w` it resets the vector env with already differs from runner to runner). An unseeded run
(`seed` None) draws fresh entropy in every env. Two runs are promised distinct streams only
within each run: with seeds s and s + 1, env j + 1 of a runner in the first run replays env j of
the same runner in the second (`"sync"` mode), so give separate experiments seeds further apart
than the runner count plus the env count.

The two-player games as a MultiAgentEnv
---------------------------------------
`TwoPlayerMultiAgentEnv` is the game's PettingZoo AEC env under RLlib's `MultiAgentEnv`
conventions: the agent ids are the game's sides, each step's observation dict holds only the agent
to move (its observation and mask), the action dict is that agent's action, and at the end both
agents get their last observation, their outcome reward and `terminateds["__all__"] = True`.
`multi_agent_config` sets a PPO config up for it with one policy per side (`shared=False`) or one
for both (`shared=True`).

Gymnasium ids in other processes
--------------------------------
RLlib's env runners and other subprocesses have not imported maquis, so
`gymnasium.make("maquis/Maquis-v0")` fails there with `NamespaceNotFound`. The form
`"maquis:maquis/Maquis-v0"` (module, colon, id) makes Gymnasium import maquis first, which
registers every maquis id: use it with `config.environment("maquis:maquis/Maquis-v0")` (the
observation is then the plain env's, without the mask keys above) or anywhere an id crosses a
process boundary.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from ..common import registry
from ..common.single import check_seed

__all__ = [
    "ENV_NAMES",
    "GAMES",
    "RLlibObservations",
    "RLlibVectorObservations",
    "TwoPlayerMultiAgentEnv",
    "env_context",
    "make_env",
    "make_multi_agent_env",
    "multi_agent_config",
    "register_envs",
    "rllib_seed",
    "seat_policy_mapping",
    "shared_policy_mapping",
]

#: The games: key -> its declaration (`maquis.common.registry.GameSpec`).
GAMES: dict[str, registry.GameSpec] = {g.key: g for g in registry.games()}

#: The `env_config` keys the creators read themselves (the others are the env's keywords).
RESERVED_KEYS = ("num_envs", "num_threads")


def rllib_seed(seed: int, worker_index: int = 0, vector_index: int = 0) -> int:
    """The seed an env of this module resets with when RLlib gives it `seed`: the first 64-bit
    word of `numpy.random.SeedSequence(seed, spawn_key=(worker_index, vector_index))`, so that
    different (seed, worker, env) triples give unrelated deal streams.

    >>> rllib_seed(12, 1, 0) != rllib_seed(12, 2, 0) != rllib_seed(13, 1, 0)
    True

    Raises TypeError / ValueError for an argument that is not a non-negative int."""
    seed = check_seed(seed)
    if seed is None:
        raise TypeError("seed must be a non-negative int, got None")
    key = (check_seed(worker_index, "worker_index"), check_seed(vector_index, "vector_index"))
    if None in key:
        raise TypeError("worker_index and vector_index must be non-negative ints")
    return int(np.random.SeedSequence(seed, spawn_key=key).generate_state(1, np.uint64)[0])


def env_context(env_config: Any) -> tuple[int, int, int]:
    """(worker_index, vector_index, num_workers) of an RLlib `EnvContext`; 0 for each that a plain
    dict (a test, a direct call) does not carry."""
    return tuple(int(getattr(env_config, name, 0) or 0) for name in ("worker_index", "vector_index", "num_workers"))


def _keywords(env_config: Any) -> dict[str, Any]:
    return {k: v for k, v in dict(env_config or {}).items() if k not in RESERVED_KEYS}


def _masked_space(observation: spaces.Space, n: int) -> spaces.Dict:
    return spaces.Dict({"observations": observation, "action_mask": spaces.Box(0.0, 1.0, (n,), np.float32)})


class RLlibObservations(gym.Wrapper):
    """A maquis single env (flat observation, `info["action_mask"]`) with RLlib's action-masking
    observation `{"observations": obs, "action_mask": float32 0/1}`; the mask leaves the info.

    With `worker_index` / `vector_index` (the `EnvContext`'s), a seeded `reset(seed=s)` resets the
    env with `rllib_seed(s, worker_index, vector_index)` (the module docstring says why)."""

    def __init__(self, env: gym.Env, worker_index: int = 0, vector_index: int = 0) -> None:
        super().__init__(env)
        self.worker_index, self.vector_index = int(worker_index), int(vector_index)
        self.observation_space = _masked_space(env.observation_space, int(env.action_space.n))

    def _obs(self, obs: np.ndarray, info: dict[str, Any]) -> dict[str, np.ndarray]:
        return {"observations": obs, "action_mask": info.pop("action_mask").astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """The env's reset, seeded with `rllib_seed(seed, worker_index, vector_index)`."""
        if seed is not None:
            seed = rllib_seed(seed, self.worker_index, self.vector_index)
        obs, info = self.env.reset(seed=seed, options=options)
        return self._obs(obs, info), info

    def step(self, action: Any) -> tuple[dict, Any, bool, bool, dict]:
        """The env's step, its observation and mask under RLlib's keys."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._obs(obs, info), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, np.bool_ (NUM_ACTIONS,)."""
        return self.env.unwrapped.action_masks()


class RLlibVectorObservations(gym.vector.VectorWrapper):
    """A maquis native vector env with RLlib's action-masking observations, batched:
    `{"observations": (n, D), "action_mask": (n, NUM_ACTIONS) float32}`; the masks leave the infos.

    A seeded `reset(seed=s)` resets the vector env with `rllib_seed(s, worker_index,
    vector_index)`, which gives its sub-env `i` the streams of `maquis.sub_env_seed` of that seed
    and `i`."""

    def __init__(self, env: gym.vector.VectorEnv, worker_index: int = 0, vector_index: int = 0) -> None:
        super().__init__(env)
        self.worker_index, self.vector_index = int(worker_index), int(vector_index)
        self.single_observation_space = _masked_space(env.single_observation_space, int(env.single_action_space.n))
        self.observation_space = batch_space(self.single_observation_space, env.num_envs)

    def _obs(self, obs: np.ndarray, infos: dict[str, Any]) -> dict[str, np.ndarray]:
        infos.pop("_action_mask", None)
        return {"observations": obs, "action_mask": infos.pop("action_mask").astype(np.float32)}

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """The vector env's reset; an int seed becomes `rllib_seed(seed, worker_index, vector_index)`."""
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
            seed = rllib_seed(int(seed), self.worker_index, self.vector_index)
        obs, infos = self.env.reset(seed=seed, options=options)
        return self._obs(obs, infos), infos

    def step(self, actions: Any) -> tuple[dict, Any, Any, Any, dict]:
        """The vector env's step, its observations and masks under RLlib's keys."""
        obs, rewards, terminated, truncated, infos = self.env.step(np.asarray(actions, dtype=np.int64))
        return self._obs(obs, infos), rewards, terminated, truncated, infos


def make_env(game: str, env_config: Any = None) -> gym.Env | gym.vector.VectorEnv:
    """The env of `game` (a key of `GAMES`: "maquis", "dday", ...) for an RLlib env runner: with
    `num_envs` in `env_config` the game's native vector env (`num_threads` Rust threads, default 1;
    None: one per core) in `RLlibVectorObservations`, else its single env in `RLlibObservations`;
    seeded from the `EnvContext`'s indices. The other `env_config` keys are the env's keyword
    arguments."""
    if game not in GAMES:
        raise ValueError(f"game must be one of {sorted(GAMES)}, got {game!r}")
    spec = GAMES[game]
    worker, index, _ = env_context(env_config)
    config = dict(env_config or {})
    kwargs = _keywords(config)
    if "num_envs" in config:
        env = registry.load(spec.vector_env)(int(config["num_envs"]), num_threads=config.get("num_threads", 1), **kwargs)
        return RLlibVectorObservations(env, worker, index)
    return RLlibObservations(registry.load(spec.single_env)(**kwargs), worker, index)


def _two_player() -> list[str]:
    return sorted(key for key, spec in GAMES.items() if spec.aec_env)


def make_multi_agent_env(game: str, env_config: Any = None) -> Any:
    """`TwoPlayerMultiAgentEnv` of the two-player `game` (a key of `GAMES` with a PettingZoo env):
    `env_config` holds the AEC env's keyword arguments and `illegal_action` ("terminate" or
    "raise"); seeded from the `EnvContext`'s indices. Imports Ray."""
    if game not in _two_player():
        raise ValueError(f"game must be one of {_two_player()}, got {game!r}")
    from ._rllib_multi_agent import TwoPlayerMultiAgentEnv

    worker, index, _ = env_context(env_config)
    kwargs = _keywords(env_config)
    illegal = kwargs.pop("illegal_action", "terminate")
    raw = registry.load(GAMES[game].aec_env)(**kwargs)
    return TwoPlayerMultiAgentEnv(raw, worker_index=worker, vector_index=index, illegal_action=illegal)


def _env_name(spec: registry.GameSpec) -> str:
    """"maquis-<Name>" of the Gymnasium id "maquis/<Name>-v0"."""
    return "maquis-" + spec.gym_id.split("/", 1)[1].rsplit("-v", 1)[0]


#: `<game>_env_creator` and `<game>_multi_agent_creator`: `make_env` / `make_multi_agent_env` of
#: the game (picklable, as Ray's registry keeps a pickled copy).
_CREATORS: dict[str, Callable[[Any], Any]] = {
    **{f"{key}_env_creator": functools.partial(make_env, key) for key in GAMES},
    **{f"{key}_multi_agent_creator": functools.partial(make_multi_agent_env, key) for key in _two_player()},
}

#: The names `register_envs` gives the creators: "maquis-<Name>" and "maquis-<Name>-MultiAgent".
ENV_NAMES: dict[str, Callable[[Any], Any]] = {
    **{_env_name(spec): _CREATORS[f"{key}_env_creator"] for key, spec in GAMES.items()},
    **{_env_name(GAMES[key]) + "-MultiAgent": _CREATORS[f"{key}_multi_agent_creator"] for key in _two_player()},
}


def register_envs(names: Any = None) -> list[str]:
    """Registers the creators of `ENV_NAMES` (all, or those in `names`) with
    `ray.tune.registry.register_env`, for `config.environment("maquis-Maquis", env_config={...})`.
    Returns the names registered; an unknown name is a ValueError."""
    from ray.tune.registry import register_env

    chosen = list(ENV_NAMES) if names is None else [names] if isinstance(names, str) else list(names)
    unknown = [n for n in chosen if n not in ENV_NAMES]
    if unknown:
        raise ValueError(f"unknown env names {unknown}: the names are {list(ENV_NAMES)}")
    for name in chosen:
        register_env(name, ENV_NAMES[name])
    return chosen


def multi_agent_config(config: Any, game: str, *, shared: bool = False, model_config: Mapping[str, Any] | None = None,
                       env_config: Mapping[str, Any] | None = None) -> Any:
    """`config` (an RLlib `AlgorithmConfig`, e.g. `PPOConfig()`) set up for the two-player `game`
    (a key of `GAMES` with a PettingZoo env: "dday", "maurice", ...) as a `TwoPlayerMultiAgentEnv`: the environment (its name of `ENV_NAMES`,
    registered here), one policy per side named after it (`shared=False`) or one policy "shared"
    for both (`shared=True`), each an `ActionMaskingTorchRLModule` with `model_config`. Returns
    the config."""
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    if game not in _two_player():
        raise ValueError(f"game must be one of {_two_player()}, got {game!r}")
    name = _env_name(GAMES[game]) + "-MultiAgent"
    register_envs(name)
    sides = tuple(registry.load(GAMES[game].aec_env)().possible_agents)
    policies = ["shared"] if shared else list(sides)
    spec = MultiRLModuleSpec(rl_module_specs={
        p: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=dict(model_config or {})) for p in policies
    })
    return (
        config.environment(name, env_config=dict(env_config or {}))
        .multi_agent(policies=set(policies),
                     policy_mapping_fn=shared_policy_mapping if shared else seat_policy_mapping)
        .rl_module(rl_module_spec=spec)
    )


def seat_policy_mapping(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """RLlib's `policy_mapping_fn` of one policy per side: the side's own name."""
    return agent_id


def shared_policy_mapping(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """RLlib's `policy_mapping_fn` of one policy for both sides: "shared"."""
    return "shared"


def __getattr__(name: str) -> Any:
    if name in _CREATORS:
        return _CREATORS[name]
    if name == "TwoPlayerMultiAgentEnv":  # subclasses Ray's MultiAgentEnv: imported on first use
        from ._rllib_multi_agent import TwoPlayerMultiAgentEnv

        return TwoPlayerMultiAgentEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
