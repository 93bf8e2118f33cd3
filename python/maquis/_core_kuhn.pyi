# Type stubs of `maquis._core.kuhn`, the Kuhn poker submodule of the Rust extension (src/py/kuhn/).
# `_core.pyi` re-exports this file as `kuhn`: a stub of an extension module cannot have a
# submodule file of its own beside it.

from collections.abc import Mapping, Sequence
from typing import Final, final

import numpy as np
import numpy.typing as npt

from ._core_common import *  # the constants every game has (NUM_ACTIONS, ACTION_NAMES, …)
from ._core_versus import *  # and every two-player game (SIDES, OBSERVATION_SIZE, action_to_str, …)
from ._core_common import _Agent, _Env, _Game, _VecEngine, _VersusEnv  # the members every game's classes share

__all__ = [
    "CARDS", "SIDES", "PHASES", "OUTCOMES", "INFOSETS", "NUM_ACTIONS", "OBSERVATION_SIZE", "ACTION_NAMES",
    "OBSERVATION_LAYOUT", "OBSERVATION_DIVISOR", "action_to_str", "action_from_str", "expected_payoff",
    "best_response", "equilibrium", "play_games", "Game", "Env", "VecEngine", "Agent",
]

CARDS: Final[tuple[str, ...]]
#: The 12 information sets (card × moves so far) a strategy gives the probability of bet at.
INFOSETS: Final[tuple[str, ...]]


# A behaviour strategy: the probability of bet at each of INFOSETS, by name or in that order.
def expected_payoff(
    a: Mapping[str, float] | Sequence[float] | npt.NDArray[np.floating],
    b: Mapping[str, float] | Sequence[float] | npt.NDArray[np.floating],
) -> float: ...
def best_response(
    strategy: Mapping[str, float] | Sequence[float] | npt.NDArray[np.floating], side: str | None = None
) -> tuple[float, dict[str, float]]: ...
def equilibrium(alpha: float = 1.0 / 3.0) -> dict[str, float]: ...

# Whole hands between bundled agents on threads, the GIL released (src/py/common/ladder.rs): per
# hand (first-side agent id, its seed, second-side agent id, its seed, game seed); the results
# from the first side's view: 1 win, -1 loss.
def play_games(
    games: list[tuple[str, int, str, int, int]], budget: int = 1, threads: int = 1
) -> list[int]: ...

@final
class Game(_Game):
    def __new__(cls) -> Game: ...
    def payoff(self, side_id: str) -> int | None: ...
    def observation(self, side_id: str) -> npt.NDArray[np.float32]: ...
    def __setstate__(self, json: str) -> None: ...

@final
class Env(_Env, _VersusEnv):
    def __new__(
        cls, *, side: str = "first", opponent: str = "heuristic", reward: dict[str, float] | None = None,
        illegal_action: str = "terminate",
    ) -> Env: ...
    def payoff(self) -> int | None: ...

@final
class VecEngine(_VecEngine):
    def __new__(
        cls, num_envs: int, num_threads: int = 0, autoreset_mode: str = "next_step", *, side: str = "first",
        opponent: str = "heuristic", reward: dict[str, float] | None = None,
        illegal_action: str = "terminate",
    ) -> VecEngine: ...

@final
class Agent(_Agent):
    """A bundled agent ("random", "heuristic") acting on observations."""

    def __new__(cls, id: str = "random", seed: int = 0, budget: int = 1) -> Agent: ...
