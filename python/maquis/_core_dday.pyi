# Type stubs of `maquis._core.dday`, the D-Day 1944 submodule of the Rust extension (src/py/dday/).
# `_core.pyi` re-exports this file as `dday`: a stub of an extension module cannot have a
# submodule file of its own beside it.

from typing import Any, Final, final

import numpy as np
import numpy.typing as npt

from ._core_common import *  # the constants every game has (NUM_ACTIONS, ACTION_NAMES, …)
from ._core_versus import *  # and every two-player game (SIDES, OBSERVATION_SIZE, action_to_str, …)
from ._core_network import *  # and every game whose levels play a trained network (load_network, …)
from ._core_common import Observations, _Agent, _Env, _Game, _VecEngine, _VersusEnv  # the members every game's classes share

__all__ = [
    "ZONES", "ITEMS", "UNITS", "STATES", "PHASES", "SIDES", "OUTCOMES", "NUM_ACTIONS", "OBSERVATION_SIZE",
    "ACTION_NAMES", "OBSERVATION_LAYOUT", "OBSERVATION_DIVISOR", "action_to_str", "action_from_str",
    "valid_allocations", "play_games", "NETWORK_FORMAT", "OBSERVATION_FINGERPRINT", "load_network",
    "network_metadata", "network_forward", "selfplay", "Game", "Env", "VecEngine", "Agent",
]

ZONES: Final[tuple[str, ...]]
ITEMS: Final[tuple[str, ...]]
UNITS: Final[tuple[str, ...]]
STATES: Final[tuple[str, ...]]

def valid_allocations() -> list[dict[str, tuple[str, ...]]]: ...

# The training games of the `network` and `network_search` levels (src/py/dday/network.rs);
# the network's loading and forward pass are `_core_network.pyi`'s.
def selfplay(
    teacher: str,
    games: int,
    seed: int = 0,
    *,
    budget: int = 200,
    network: str | Any | None = None,
    threads: int = 1,
    opponents: list[str] | None = None,
    opponent_budget: int = 200,
) -> dict[str, npt.NDArray[Any]]: ...

# Whole games between bundled agents on threads, the GIL released (src/py/common/ladder.rs), the
# engine of `maquis dday ladder`: per game (first-side agent id, its seed, second-side agent id, its
# seed, game seed); the results from the first side's view: 1 win, 0 draw, -1 loss.
def play_games(
    games: list[tuple[str, int, str, int, int]], budget: int = 200, threads: int = 1
) -> list[int]: ...

@final
class Game(_Game):
    def __new__(cls) -> Game: ...
    def vp(self) -> tuple[int, int]: ...
    def observation(self, side_id: str) -> npt.NDArray[np.float32]: ...
    def __setstate__(self, json: str) -> None: ...

@final
class Env(_Env, _VersusEnv):
    def __new__(
        cls, *, side: str = "resistance", opponent: str = "heuristic", budget: int = 200,
        reward: dict[str, float] | None = None, vp_margin: bool = False, illegal_action: str = "terminate",
    ) -> Env: ...
    def vp(self) -> tuple[int, int]: ...

@final
class VecEngine(_VecEngine):
    def __new__(
        cls, num_envs: int, num_threads: int = 0, autoreset_mode: str = "next_step", *,
        side: str = "resistance", opponent: str = "heuristic", budget: int = 200,
        reward: dict[str, float] | None = None, vp_margin: bool = False, illegal_action: str = "terminate",
    ) -> VecEngine: ...

@final
class Agent(_Agent):
    """A bundled agent ("random", "heuristic", "search") acting on observations."""

    def __new__(cls, id: str = "random", seed: int = 0, budget: int = 200) -> Agent: ...
