# Type stubs of `maquis._core.maurice`, the Maurice Lite submodule of the Rust extension
# (src/py/maurice/). `_core.pyi` re-exports this file as `maurice`: a stub of an extension module
# cannot have a submodule file of its own beside it.

from typing import Any, Final, final

import numpy as np
import numpy.typing as npt

from ._core_common import *  # the constants every game has (NUM_ACTIONS, ACTION_NAMES, …)
from ._core_versus import *  # and every two-player game (SIDES, OBSERVATION_SIZE, action_to_str, …)
from ._core_network import *  # and every game whose levels play a trained network (load_network, …)
from ._core_common import Observations, _Agent, _Env, _Game, _VecEngine, _VersusEnv  # the members every game's classes share

__all__ = [
    "SIDES", "UNIT_TYPES", "FORMATIONS", "FACINGS", "TERRAINS", "COMMANDS", "PHASES", "SCENARIOS", "OUTCOMES",
    "PLANES", "UNIT_FEATURES", "WIDTH", "HEIGHT", "MAX_UNITS", "DECK_SIZE", "NUM_ACTIONS", "OBSERVATION_SIZE",
    "COMPACT_OBSERVATION_SIZE", "ACTION_NAMES", "OBSERVATION_LAYOUT", "COMPACT_OBSERVATION_LAYOUT",
    "OBSERVATION_DIVISOR", "CARDS", "action_to_str", "action_from_str", "scenario", "POTENTIAL_TERMS",
    "play_games", "NETWORK_FORMAT", "OBSERVATION_FINGERPRINT", "load_network", "network_metadata",
    "network_forward", "selfplay", "Game", "Env", "VecEngine", "Agent",
]

UNIT_TYPES: Final[tuple[str, ...]]
#: The shaping potential's terms, (name, default weight) in the potential's order.
POTENTIAL_TERMS: Final[tuple[tuple[str, float], ...]]
FORMATIONS: Final[tuple[str, ...]]
FACINGS: Final[tuple[str, ...]]
TERRAINS: Final[tuple[str, ...]]
COMMANDS: Final[tuple[str, ...]]
SCENARIOS: Final[tuple[str, ...]]
PLANES: Final[tuple[str, ...]]
UNIT_FEATURES: Final[tuple[str, ...]]
WIDTH: Final[int]
HEIGHT: Final[int]
MAX_UNITS: Final[int]
DECK_SIZE: Final[int]
COMPACT_OBSERVATION_SIZE: Final[int]
COMPACT_OBSERVATION_LAYOUT: Final[tuple[tuple[str, int, int], ...]]
#: The stand-in deck of RULES K1 (not the publisher's card text): 30 dicts `index`, `id`, `name`,
#: `span`, `symbol`, `mark`, `copies`, `effect`.
CARDS: Final[tuple[dict[str, Any], ...]]

def scenario(name: str) -> dict[str, Any]: ...

# The training games of the `network` and `network_search` levels (src/py/maurice/network.rs, over the compact observation);
# the network's loading and forward pass are `_core_network.pyi`'s.
def selfplay(
    teacher: str,
    games: int,
    seed: int = 0,
    *,
    scenarios: list[str] | None = None,
    budget: int = 100,
    network: str | Any | None = None,
    threads: int = 1,
    opponents: list[str] | None = None,
    opponent_budget: int = 100,
    maps: bool = False,
) -> dict[str, npt.NDArray[Any]]: ...

# Whole games between bundled agents on threads, the GIL released (src/py/common/ladder.rs), the
# engine of `maquis maurice ladder`: per game (first-side agent id, its seed, second-side agent id, its
# seed, game seed); the results from the first side's view: 1 win, 0 draw, -1 loss.
def play_games(
    games: list[tuple[str, int, str, int, int]], budget: int = 100, threads: int = 1
) -> list[int]: ...

@final
class Game(_Game):
    def __new__(
        cls,
        *,
        scenario: str = "standard",
        terrain: str = "scenario",
        observation: str = "full",
        observation_dtype: str = "float32",
    ) -> Game: ...
    def morale(self) -> tuple[int, int]: ...
    def morale_margin(self, side_id: str) -> float: ...
    @property
    def observation_kind(self) -> str: ...
    @property
    def observation_dtype(self) -> str: ...
    def observation(self, side_id: str) -> Observations: ...
    def __setstate__(self, state: str) -> None: ...

@final
class Env(_Env, _VersusEnv):
    def __new__(
        cls, *, side: str = "blue", opponent: str = "heuristic", budget: int = 100,
        scenario: str = "standard", terrain: str = "scenario", reward: dict[str, float] | None = None,
        morale_margin: bool = False, illegal_action: str = "terminate",
    ) -> Env: ...
    def morale(self) -> tuple[int, int]: ...

@final
class VecEngine(_VecEngine):
    def __new__(
        cls, num_envs: int, num_threads: int = 0, autoreset_mode: str = "next_step", *, side: str = "blue",
        opponent: str = "heuristic", budget: int = 100, scenario: str = "standard", terrain: str = "scenario",
        reward: dict[str, float] | None = None, morale_margin: bool = False,
        illegal_action: str = "terminate",
    ) -> VecEngine: ...

@final
class Agent(_Agent):
    """A bundled agent ("random", "heuristic", "search") acting on full observations."""

    def __new__(cls, id: str = "random", seed: int = 0, budget: int = 100) -> Agent: ...
