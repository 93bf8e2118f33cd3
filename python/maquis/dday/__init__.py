"""maquis.dday: *French Resistance D-Day 1944*, the two-player game, with a Rust engine.

>>> import maquis.dday as dday
>>> env = dday.env()                       # PettingZoo AEC, agents "resistance" and "german"
>>> env.reset(seed=0)
>>> import gymnasium as gym
>>> single = gym.make("maquis/DDay1944-v0", side="resistance", opponent="heuristic")
>>> obs, info = single.reset(seed=0)

- `raw_env(**kw)` / `env(**kw)`: the two-player AEC environment (unwrapped / wrapped as PettingZoo's
  classic games are).
- `DDayEnv`: the learner plays one side against a bundled opponent (`gymnasium.Env`,
  `maquis/DDay1944-v0`); `DDayVectorEnv`: many, stepped in Rust (`gymnasium.make_vec`), also
  with uint8 observations (`observation_dtype="uint8"`: each value's count, divided by
  `OBSERVATION_DIVISOR` to give the float32 one).
- `ZONES`, `ITEMS`, `UNITS`, `STATES`, `PHASES`, `ACTION_NAMES`, `OBSERVATION_LAYOUT`,
  `NUM_ACTIONS` (191), `OBSERVATION_SIZE` (380), `action_to_str`, `action_from_str`,
  `valid_allocations()`.
- `maquis.dday.agents`: `RandomAgent`, `HeuristicAgent`, `SearchAgent`.
"""

from __future__ import annotations

from .._core import dday as _dday
from ..common.registration import lazy_attributes
from ..common.seeding import sub_env_seed
from .game import GAME
from ._common import OBSERVATION_DIVISOR
from .aec import DDayAECEnv, env, raw_env
from .single import DDayEnv
from .vector import DDayVectorEnv

ZONES: tuple[str, ...] = _dday.ZONES
ITEMS: tuple[str, ...] = _dday.ITEMS
UNITS: tuple[str, ...] = _dday.UNITS
STATES: tuple[str, ...] = _dday.STATES
PHASES: tuple[str, ...] = _dday.PHASES
NUM_ACTIONS: int = _dday.NUM_ACTIONS
OBSERVATION_SIZE: int = _dday.OBSERVATION_SIZE
ACTION_NAMES: tuple[str, ...] = _dday.ACTION_NAMES
OBSERVATION_LAYOUT: tuple[tuple[str, int, int], ...] = _dday.OBSERVATION_LAYOUT
action_to_str = _dday.action_to_str
action_from_str = _dday.action_from_str

ENV_ID = GAME.gym_id  # registered with Gymnasium by `import maquis`


def valid_allocations() -> list[dict[str, tuple[str, ...]]]:
    """The 6,600 valid German allocations (RULES G3): each a dict zone -> tuple of items in G2
    order, in the lexicographic order of their decision sequences (action indices)."""
    return _dday.valid_allocations()


__all__ = [
    "evaluate",
    "ladder",
    "rate",
    "ACTION_NAMES",
    "DDayAECEnv",
    "DDayEnv",
    "DDayVectorEnv",
    "ENV_ID",
    "ITEMS",
    "NUM_ACTIONS",
    "OBSERVATION_DIVISOR",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "PHASES",
    "STATES",
    "UNITS",
    "ZONES",
    "action_from_str",
    "action_to_str",
    "agents",
    "env",
    "raw_env",
    "sub_env_seed",
    "valid_allocations",
]


# Loaded on first use, as maquis.maquis.agents.
__getattr__ = lazy_attributes(__name__, {"agents": ".agents", "evaluate": ".evaluation:evaluate", "ladder": ".tournament:ladder", "rate": ".tournament:rate"})
