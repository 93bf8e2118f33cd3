# Type stubs of `maquis._core.maquis`, the Maquis submodule of the Rust extension (src/py/maquis/).
# `_core.pyi` re-exports this file as `maquis`: a stub of an extension module cannot have a
# submodule file of its own beside it.

import os
from collections.abc import Mapping, Sequence
from typing import Any, Final, final

import numpy as np
import numpy.typing as npt

from ._core_common import *  # the constants every game has (NUM_ACTIONS, ACTION_NAMES, …)
from ._core_common import Observations, _Env, _VecEngine  # the members every game's classes share

__all__ = [
    "NUM_ACTIONS", "OBS_SIZE", "ACTION_NAMES", "OBSERVATION_LAYOUT", "OBSERVATION_DIVISOR", "OUTCOMES",
    "POTENTIAL_TERMS", "action_to_str", "action_from_str", "Env", "VecEngine", "HeuristicAgent",
    "SearchAgent", "bench_engine", "bench_vector", "env_memory", "LOCATIONS", "SLOTS", "SPARE_ROOMS",
    "FIELDS", "PATROL_LOCATIONS", "WEST_BANK", "SAFE_LOCATIONS", "ROADS", "PATROL_CARDS", "END_DAY",
    "LAST_DAY", "ORANGE_DAYS", "TRIANGLE_DAYS", "MAX_MORALE", "START_MORALE", "MIN_PATROLS", "MAX_SOLDIERS",
    "TOKENS_PER_RESOURCE", "MAX_WORKERS", "RESOURCES", "TILES", "SAFE_TILES", "MISSIONS", "DIFFICULTIES",
    "DIFFICULTY_SETTINGS", "MISSION_POOLS", "POOL_SETTINGS", "DEALS", "PHASES", "NETWORK_FORMAT",
    "NETWORK_FORMAT_V2", "NETWORK_INPUTS", "HEURISTIC_RANKS", "HEURISTIC_PLANES", "HEURISTIC_GAP_SCALE",
    "OBSERVATION_FINGERPRINT", "Network", "NetworkAgent", "NetworkSearchAgent", "NETWORK_SEARCH_DEFAULTS",
    "selfplay", "clairvoyant_games",
]

OBS_SIZE: Final[int]
#: The shaping potential's terms, (name, default weight) in the potential's order.
POTENTIAL_TERMS: Final[tuple[tuple[str, float], ...]]

# The engine's rule tables (src/py/maquis/tables.rs), ids as RULES.md spells them; see `maquis.tables`.
LOCATIONS: Final[tuple[str, ...]]
SLOTS: Final[tuple[str, ...]]
SPARE_ROOMS: Final[tuple[str, ...]]
FIELDS: Final[tuple[str, ...]]
PATROL_LOCATIONS: Final[tuple[str, ...]]
WEST_BANK: Final[tuple[str, ...]]
SAFE_LOCATIONS: Final[tuple[str, ...]]
ROADS: Final[tuple[tuple[str, str], ...]]
PATROL_CARDS: Final[tuple[tuple[str, str, str], ...]]
END_DAY: Final[int]
LAST_DAY: Final[int]
ORANGE_DAYS: Final[tuple[int, ...]]
TRIANGLE_DAYS: Final[tuple[int, ...]]
MAX_MORALE: Final[int]
START_MORALE: Final[int]
MIN_PATROLS: Final[tuple[int, ...]]
MAX_SOLDIERS: Final[int]
TOKENS_PER_RESOURCE: Final[int]
MAX_WORKERS: Final[int]
RESOURCES: Final[tuple[str, ...]]
TILES: Final[tuple[str, ...]]
SAFE_TILES: Final[tuple[str, ...]]
MISSIONS: Final[Mapping[str, Mapping[str, Any]]]
DIFFICULTIES: Final[tuple[str, ...]]
DIFFICULTY_SETTINGS: Final[Mapping[str, Mapping[str, Any]]]
MISSION_POOLS: Final[tuple[str, ...]]
POOL_SETTINGS: Final[Mapping[str, Mapping[str, Any]]]
DEALS: Final[tuple[str, ...]]

# The learned network (src/py/maquis/network.rs); see `maquis.network`.
NETWORK_FORMAT: Final[str]
NETWORK_FORMAT_V2: Final[str]
NETWORK_INPUTS: Final[tuple[str, ...]]
HEURISTIC_RANKS: Final[int]
HEURISTIC_PLANES: Final[int]
HEURISTIC_GAP_SCALE: Final[float]
OBSERVATION_FINGERPRINT: Final[str]
#: The settings of `network_search` (without `gumbel_scale`), read-only: simulations, candidates,
#: heuristic_candidates and depth are ints; rollout_mix, prior_weight and progress_bonus floats.
NETWORK_SEARCH_DEFAULTS: Final[Mapping[str, float]]

def action_to_str(action: int | np.integer) -> str: ...
def action_from_str(name: str) -> int: ...
# Benchmarks (src/py/maquis/bench.rs), for `maquis bench`.
def bench_engine(
    seconds: float, difficulty: str = "normal", seed: int = 0, observe: bool = False, copies: int = 1
) -> tuple[int, int, float]: ...
def bench_vector(
    num_envs: int, num_threads: int, seconds: float, difficulty: str = "normal", seed: int = 0
) -> tuple[int, float]: ...
def env_memory(num_threads: int = 2) -> dict[str, int]: ...

# Training data and the clairvoyant ceiling (src/py/maquis/network.rs). `selfplay` returns `obs` float32
# (n, OBS_SIZE), `masks` bool (n, NUM_ACTIONS), `policy` float32 (n, NUM_ACTIONS), `root_value`,
# `outcome` float32 (n,), `game` int64 (n,) and `game_outcomes` int64 (games,) (index in OUTCOMES).
# A default `...` is a Rust expression, not a literal: the runtime signature (and stubtest) show `...`.
def selfplay(
    teacher: str,
    games: int,
    seed: int = 0,
    *,
    difficulties: list[str] = ...,  # ["normal"]
    mission_pool: str = "second_edition",
    network: Network | None = None,
    simulations: int = 64,
    # The defaults `...` are PURE_NETWORK_SETTINGS (src/maquis/agents/guided.rs): 8 candidates,
    # depth 4, rollout_mix 0, no heuristic candidates, prior_weight 1, progress_bonus 0.
    candidates: int = ...,
    depth: int = ...,
    rollout_mix: float = ...,
    gumbel_scale: float = 1.0,
    heuristic_candidates: int = ...,
    prior_weight: float = ...,
    progress_bonus: float = ...,
    threads: int = 1,
) -> dict[str, npt.NDArray[Any]]: ...
def clairvoyant_games(
    difficulty: str = "normal",
    episodes: int = 100,
    seed: int = 0,
    *,
    mission_pool: str = "second_edition",
    candidates: int = 4,
    rollouts: int = 2,
    threads: int = 1,
) -> list[tuple[str, int, int, int]]: ...

@final
class Env(_Env):
    def __new__(
        cls, *, difficulty: str = "normal", mission_pool: str = "second_edition", deal: str = "uniform",
        missions: list[str] | None = None, reward: dict[str, float] | None = None,
        illegal_action: str = "terminate",
    ) -> Env: ...
    def reset(
        self, stream_seed: int | None = None, options: str | None = None
    ) -> tuple[Observations, npt.NDArray[np.int8]]: ...
    def step(
        self, action: int | np.integer
    ) -> tuple[Observations, npt.NDArray[np.int8], float, bool, bool, str | None, bool]: ...
    def determinize(self, seed: int) -> None: ...
    @property
    def reward(self) -> dict[str, float]: ...

@final
class HeuristicAgent:
    def __new__(cls, seed: int = 0) -> HeuristicAgent: ...
    def act_batch(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]: ...
    def ranked_batch(
        self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_], k: int = 4
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]: ...

@final
class SearchAgent:
    def __new__(cls, simulations: int = 200, seed: int = 0) -> SearchAgent: ...
    def act_batch(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]: ...
    @property
    def simulations(self) -> int: ...

@final
class Network:
    """A learned network (a `maquis-net-v1`/`-v2` weight file) evaluated in Rust. No constructor:
    `load`, `from_bytes` or `random`."""

    @staticmethod
    def load(path: str | os.PathLike[str]) -> Network: ...
    @staticmethod
    def from_bytes(data: bytes) -> Network: ...
    @staticmethod
    def random(hidden: Sequence[int], seed: int = 0, inputs: str = "observation") -> Network: ...
    def to_bytes(self) -> bytes: ...
    def forward(
        self, obs: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...
    def inputs_of(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]: ...
    @property
    def inputs(self) -> str: ...
    @property
    def input_size(self) -> int: ...
    @property
    def hidden(self) -> list[int]: ...
    @property
    def metadata(self) -> dict[str, str]: ...

@final
class NetworkAgent:
    def __new__(cls, network: Network) -> NetworkAgent: ...
    def act_batch(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]: ...

@final
class NetworkSearchAgent:
    # The defaults `...` are NETWORK_SEARCH_DEFAULTS (src/maquis/agents/guided.rs).
    def __new__(
        cls,
        network: Network,
        simulations: int = ...,
        seed: int = 0,
        *,
        candidates: int = ...,
        depth: int = ...,
        rollout_mix: float = ...,
        gumbel_scale: float = 0.0,
        heuristic_candidates: int = ...,
        prior_weight: float = ...,
        progress_bonus: float = ...,
    ) -> NetworkSearchAgent: ...
    def act_batch(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]: ...
    # `action` int64 (n,), `policy` float32 (n, NUM_ACTIONS), `value` and `net_value` float32 (n,).
    def search_batch(
        self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]
    ) -> dict[str, npt.NDArray[Any]]: ...
    @property
    def simulations(self) -> int: ...

@final
class VecEngine(_VecEngine):
    def __new__(
        cls, num_envs: int, num_threads: int = 0, autoreset_mode: str = "next_step", *,
        difficulty: str = "normal", mission_pool: str = "second_edition", deal: str = "uniform",
        missions: list[str] | None = None, reward: dict[str, float] | None = None,
        illegal_action: str = "terminate",
    ) -> VecEngine: ...
