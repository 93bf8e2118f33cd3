"""maquis.kuhn: *Kuhn poker*, the three-card poker of hidden information and chance
(docs/rules/kuhn.md), with a Rust engine — the worked example of how a game is added
(docs/adding_a_game.md), and an exact exploitability check.

>>> import maquis.kuhn as kuhn
>>> env = kuhn.env()                       # PettingZoo AEC, agents "first" and "second"
>>> env.reset(seed=0)
>>> import gymnasium as gym
>>> single = gym.make("maquis/KuhnPoker-v0", side="first", opponent="heuristic")
>>> obs, info = single.reset(seed=0)

- `raw_env(**kw)` / `env(**kw)`: the two-player AEC environment (unwrapped / wrapped as
  PettingZoo's classic games are).
- `KuhnEnv`: the learner plays one seat against a bundled opponent (`gymnasium.Env`,
  `maquis/KuhnPoker-v0`); `KuhnVectorEnv`: many, stepped in Rust (`gymnasium.make_vec`).
- Tables (docs/api/kuhn.md): `CARDS`, `SIDES`, `PHASES`, `OUTCOMES`, `INFOSETS`, `NUM_ACTIONS`
  (2), `OBSERVATION_SIZE` (13), `ACTION_NAMES`, `OBSERVATION_LAYOUT`, `OBSERVATION_DIVISOR`,
  `action_to_str`, `action_from_str`.
- The exact analysis: `expected_payoff(a, b)`, `best_response(strategy, side=None)`,
  `equilibrium(alpha=1/3)`, `exploit(...)` (what `maquis kuhn exploit` prints).
- `maquis.kuhn.agents`: `RandomAgent`, `HeuristicAgent`; `evaluate`, `ladder`, `rate`.
"""

from __future__ import annotations

from .._core import kuhn as _kuhn
from ..common.registration import lazy_attributes
from ..common.seeding import sub_env_seed
from ._common import OBSERVATION_DIVISOR, OPPONENTS, observation_float32
from .aec import KuhnAECEnv, env, raw_env
from .game import GAME
from .single import KuhnEnv
from .vector import KuhnVectorEnv

CARDS: tuple[str, ...] = _kuhn.CARDS
SIDES: tuple[str, ...] = _kuhn.SIDES
PHASES: tuple[str, ...] = _kuhn.PHASES
OUTCOMES: tuple[str, ...] = _kuhn.OUTCOMES
#: The 12 information sets (card x moves so far) a behaviour strategy gives the probability of bet at.
INFOSETS: tuple[str, ...] = _kuhn.INFOSETS
NUM_ACTIONS: int = _kuhn.NUM_ACTIONS
OBSERVATION_SIZE: int = _kuhn.OBSERVATION_SIZE
ACTION_NAMES: tuple[str, ...] = _kuhn.ACTION_NAMES
OBSERVATION_LAYOUT: tuple[tuple[str, int, int], ...] = _kuhn.OBSERVATION_LAYOUT
action_to_str = _kuhn.action_to_str
action_from_str = _kuhn.action_from_str
expected_payoff = _kuhn.expected_payoff
best_response = _kuhn.best_response
equilibrium = _kuhn.equilibrium

ENV_ID = GAME.gym_id  # registered with Gymnasium by `import maquis`

__all__ = [
    "evaluate",
    "exploit",
    "ladder",
    "rate",
    "ACTION_NAMES",
    "CARDS",
    "ENV_ID",
    "INFOSETS",
    "KuhnAECEnv",
    "KuhnEnv",
    "KuhnVectorEnv",
    "NUM_ACTIONS",
    "OBSERVATION_DIVISOR",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "OPPONENTS",
    "OUTCOMES",
    "PHASES",
    "SIDES",
    "action_from_str",
    "action_to_str",
    "agents",
    "best_response",
    "env",
    "equilibrium",
    "expected_payoff",
    "observation_float32",
    "raw_env",
    "sub_env_seed",
]

# Loaded on first use, as the other games' agents and evaluation.
__getattr__ = lazy_attributes(__name__, {
    "agents": ".agents", "evaluate": ".evaluation:evaluate", "ladder": ".tournament:ladder",
    "rate": ".tournament:rate", "exploit": ".exact:exploit",
})
