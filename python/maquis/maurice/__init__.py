"""maquis.maurice: *Maurice Lite*, the two-player game of horse-and-musket armies and a hidden hand
of cards (docs/rules/maurice.md), with a Rust engine.

>>> import maquis.maurice as maurice
>>> env = maurice.env()                    # PettingZoo AEC, agents "blue" and "red"
>>> env.reset(seed=0)
>>> import gymnasium as gym
>>> single = gym.make("maquis/MauriceLite-v0", side="blue", opponent="heuristic")
>>> obs, info = single.reset(seed=0)

- `raw_env(**kw)` / `env(**kw)`: the two-player AEC environment (unwrapped / wrapped as
  PettingZoo's classic games are).
- `MauriceEnv`: the learner plays one side against a bundled opponent (`gymnasium.Env`,
  `maquis/MauriceLite-v0`); `MauriceVectorEnv`: many, stepped in Rust (`gymnasium.make_vec`).
  Both, and the AEC env, take `observation="full"|"compact"` (21334 or 1084 values) and
  `observation_dtype="float32"|"uint8"` (uint8: each value's count, divided by
  `OBSERVATION_DIVISOR` to give the float32 one; `observation_float32` converts).
- Tables (docs/api/maurice.md): `SIDES`, `UNIT_TYPES`, `FORMATIONS`, `FACINGS`, `TERRAINS`,
  `COMMANDS`, `PHASES`, `SCENARIOS`, `PLANES`, `UNIT_FEATURES`, `WIDTH`, `HEIGHT`, `MAX_UNITS`,
  `DECK_SIZE`, `NUM_ACTIONS` (1447), `OBSERVATION_SIZE` (21334), `COMPACT_OBSERVATION_SIZE`
  (1084), `ACTION_NAMES`, `OBSERVATION_LAYOUT`, `COMPACT_OBSERVATION_LAYOUT`,
  `observation_layout(kind)`, `CARDS`, `scenario(name)`, `action_to_str`, `action_from_str`.
- `CARDS`: the deck of RULES K1, 30 card types (40 cards) as dicts `index`, `id`, `name`, `span`,
  `symbol`, `mark`, `copies`, `effect`. It is this library's stand-in, built from the card names and
  effects the rules mention, not the publisher's card text.
- `maquis.maurice.agents`: `RandomAgent`, `HeuristicAgent`, `SearchAgent`;
  `maquis.maurice.evaluate`: a policy against them, per side and opponent.
- `sub_env_seed(seed, i)`: the single-env seed that replays sub-env `i` of a vector env reset
  with `seed`.
"""

from __future__ import annotations

from typing import Any

from .._core import maurice as _maurice
from ..common.registration import lazy_attributes
from ..common.seeding import sub_env_seed
from .game import GAME
from ._common import OBSERVATION_DIVISOR, observation_float32
from .aec import MauriceAECEnv, env, raw_env
from .single import MauriceEnv
from .vector import MauriceVectorEnv

SIDES: tuple[str, ...] = _maurice.SIDES
UNIT_TYPES: tuple[str, ...] = _maurice.UNIT_TYPES
FORMATIONS: tuple[str, ...] = _maurice.FORMATIONS
FACINGS: tuple[str, ...] = _maurice.FACINGS
TERRAINS: tuple[str, ...] = _maurice.TERRAINS
COMMANDS: tuple[str, ...] = _maurice.COMMANDS
PHASES: tuple[str, ...] = _maurice.PHASES
SCENARIOS: tuple[str, ...] = _maurice.SCENARIOS
PLANES: tuple[str, ...] = _maurice.PLANES
UNIT_FEATURES: tuple[str, ...] = _maurice.UNIT_FEATURES
OUTCOMES: tuple[str, ...] = _maurice.OUTCOMES
WIDTH: int = _maurice.WIDTH
HEIGHT: int = _maurice.HEIGHT
MAX_UNITS: int = _maurice.MAX_UNITS
DECK_SIZE: int = _maurice.DECK_SIZE
NUM_ACTIONS: int = _maurice.NUM_ACTIONS
OBSERVATION_SIZE: int = _maurice.OBSERVATION_SIZE
COMPACT_OBSERVATION_SIZE: int = _maurice.COMPACT_OBSERVATION_SIZE
ACTION_NAMES: tuple[str, ...] = _maurice.ACTION_NAMES
OBSERVATION_LAYOUT: tuple[tuple[str, int, int], ...] = _maurice.OBSERVATION_LAYOUT
COMPACT_OBSERVATION_LAYOUT: tuple[tuple[str, int, int], ...] = _maurice.COMPACT_OBSERVATION_LAYOUT
#: The stand-in deck of RULES K1 (this library's, not the publisher's card text): 30 dicts.
CARDS: tuple[dict[str, Any], ...] = _maurice.CARDS
action_to_str = _maurice.action_to_str
action_from_str = _maurice.action_from_str

ENV_ID = GAME.gym_id  # registered with Gymnasium by `import maquis`


def observation_layout(kind: str = "full") -> tuple[tuple[str, int, int], ...]:
    """`OBSERVATION_LAYOUT` ("full") or `COMPACT_OBSERVATION_LAYOUT` ("compact"): (name, offset,
    length) of each slice, in order."""
    if kind == "full":
        return OBSERVATION_LAYOUT
    if kind == "compact":
        return COMPACT_OBSERVATION_LAYOUT
    raise ValueError(f"kind must be 'full' or 'compact', got {kind!r}")


def scenario(name: str) -> dict[str, Any]:
    """The data of scenario `name` ("standard" or "skirmish") in the format of the reset options:
    `{"terrain": map, "units": {side: [unit, ...]}, "cinc": {side: [x, y]}}`, red already turned
    (RULES S2). A new dict each call. ValueError for another name."""
    return _maurice.scenario(name)


__all__ = [
    "evaluate",
    "ladder",
    "rate",
    "ACTION_NAMES",
    "CARDS",
    "COMMANDS",
    "COMPACT_OBSERVATION_LAYOUT",
    "COMPACT_OBSERVATION_SIZE",
    "DECK_SIZE",
    "ENV_ID",
    "FACINGS",
    "FORMATIONS",
    "HEIGHT",
    "MAX_UNITS",
    "MauriceAECEnv",
    "MauriceEnv",
    "MauriceVectorEnv",
    "NUM_ACTIONS",
    "OBSERVATION_DIVISOR",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "OUTCOMES",
    "PHASES",
    "PLANES",
    "SCENARIOS",
    "SIDES",
    "TERRAINS",
    "UNIT_FEATURES",
    "UNIT_TYPES",
    "WIDTH",
    "action_from_str",
    "action_to_str",
    "agents",
    "env",
    "observation_float32",
    "observation_layout",
    "raw_env",
    "scenario",
    "sub_env_seed",
]


# Loaded on first use, as maquis.maquis.agents.
__getattr__ = lazy_attributes(__name__, {"agents": ".agents", "evaluate": ".evaluation:evaluate", "ladder": ".tournament:ladder", "rate": ".tournament:rate"})
