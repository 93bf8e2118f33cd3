"""`raw_env` / `env`: D-Day 1944 as a PettingZoo AEC environment, two agents `resistance` and
`german` deciding in turn over one flat `Discrete(191)` action space with legal-action masks.
The rules run in Rust (`maquis._core.dday.Game`); this module converts types and keeps
PettingZoo's bookkeeping."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._core import dday as _dday
from ..env import check_seed
from ._common import RENDER_MODES, SCENARIO_OPTIONS, check_render_mode, render, reward_kwargs, scenario_json, vp_info

AGENTS = ["resistance", "german"]


class DDayAECEnv(AECEnv):
    """*French Resistance D-Day 1944* for two agents (PettingZoo AEC, `maquis.dday.raw_env`).

    The German (`german`) allocates his trains and troops over five rail zones in secret; the
    Resistance (`resistance`) interrogates him, attacks two zones, and two dice skirmishes are
    fought; victory points decide (RULES.md). Each `step` is one decision of `agent_selection`;
    chance and single-option decisions run inside it, and the next decider is often the same
    agent (a `hit` choice passes to the target's owner and back).

    - Observations: `{"observation": float32 (380,), "action_mask": int8 (191,)}`, each agent
      seeing only what it may (the Resistance never sees unrevealed zones); the mask is all
      zeros unless the agent is `agent_selection`.
    - Rewards: 0 until the end, then win 1 / draw 0 / loss -1 (`reward=` a partial mapping of
      them, or `"vp_margin"`: (own VP - opponent VP) / 150). Zero-sum by default.
    - At the end every agent is terminated, with `infos[agent]["outcome"]` and `["vp"]`; step
      the agents out with `None`. Truncation never happens.
    - An illegal action raises `maquis.IllegalActionError` (a ValueError naming the action and the
      phase) and changes nothing; `maquis.dday.env()` wraps this class in PettingZoo's
      `TerminateIllegalWrapper` instead.
    - `reset(seed, options)`: options `allocation`, `attack`, `first`, `dice` (API.md); unknown
      keys are ignored with a UserWarning naming them. `state_dict()`, `save_state()`,
      `load_state()`, `clone()`, pickling, `action_to_str()`, `action_from_str()`.
    """

    metadata = {"name": "dday1944_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 1}

    def __init__(self, reward: Any = None, render_mode: str | None = None) -> None:
        super().__init__()
        self._reward = reward_kwargs(reward)
        if self._reward["reward"] is not None:
            table = {"win": 1.0, "draw": 0.0, "loss": -1.0}
            for k, v in self._reward["reward"].items():
                if k not in table:
                    raise ValueError(f"reward keys are 'win', 'draw' and 'loss', got {k!r}")
                table[k] = v
            self._table = table
        else:
            self._table = {"win": 1.0, "draw": 0.0, "loss": -1.0}
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(_dday.OBSERVATION_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(_dday.NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(_dday.NUM_ACTIONS) for a in AGENTS}
        self._game = _dday.Game()
        self._np_random: np.random.Generator | None = None
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[1]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- PettingZoo API ----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_seed(seed)
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(f"options must be a dict, got {type(options).__name__}")
        known = {}
        for key, value in (options or {}).items():
            if key in SCENARIO_OPTIONS:
                known[key] = value
            else:
                warnings.warn(f"maquis.dday: unknown reset option {key!r} ignored", UserWarning, stacklevel=2)
        opts = scenario_json(known)
        before = self._np_random
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        elif self._np_random is None:
            self._np_random, _ = seeding.np_random(None)
        assert self._np_random is not None
        game_seed = int(self._np_random.integers(0, 2**64, dtype=np.uint64))
        try:
            self._game.reset(game_seed, opts)
        except BaseException:
            self._np_random = before  # a refused reset changes nothing
            raise
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = self._game.to_move or AGENTS[1]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent not in AGENTS:
            raise ValueError(f"agent must be 'resistance' or 'german', got {agent!r}")
        obs = self._game.observation(agent)
        if agent == self.agent_selection and self._game.to_move == agent:
            mask = self._game.action_mask()
        else:
            mask = np.zeros(_dday.NUM_ACTIONS, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._game.step(action)  # raises before any change if illegal
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in AGENTS}
        if self._game.is_over:
            self._finish()
            # The agents are stepped out with None, the other one first.
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.agent_selection = self._game.to_move
        self._accumulate_rewards()

    def _finish(self) -> None:
        vp = self._game.vp()
        for i, a in enumerate(AGENTS):
            outcome = self._game.outcome_for(a)
            if self._reward["vp_margin"]:
                self.rewards[a] = (vp[i] - vp[1 - i]) / 150.0
            else:
                self.rewards[a] = self._table[outcome]
            self.terminations[a] = True
            self.infos[a] = {"outcome": outcome, "vp": vp_info(vp)}

    def render(self) -> Any:
        return render(self._game.state_dict(), self.render_mode)

    def close(self) -> None:
        pass

    # -- Names, state, saving ----------------------------------------------------------------------

    @staticmethod
    def action_to_str(action: int) -> str:
        return _dday.action_to_str(action)

    @staticmethod
    def action_from_str(name: str) -> int:
        return _dday.action_from_str(name)

    @property
    def phase(self) -> str:
        return self._game.phase

    def legal_actions(self) -> list[int]:
        """The legal actions of `agent_selection` (empty once the game is over)."""
        return self._game.legal_actions()

    def state_dict(self) -> dict[str, Any]:
        """The full state (nothing hidden) as plain Python data (API.md)."""
        return self._game.state_dict()

    def save_state(self) -> str:
        """The game as versioned JSON, dice stream included (`load_state` restores it exactly)."""
        return self._game.save_state()

    def load_state(self, state: str) -> None:
        """Continue from `save_state()`: the agents, rewards and flags follow the loaded game."""
        if not isinstance(state, str):
            raise TypeError(f"load_state expects the str of save_state(), got {type(state).__name__}")
        self._game.load_state(state)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        if self._game.is_over:
            for a in AGENTS:
                self.terminations[a] = True
                self.infos[a] = {"outcome": self._game.outcome_for(a), "vp": vp_info(self._game.vp())}
            self.agent_selection = AGENTS[0]
        else:
            self.agent_selection = self._game.to_move

    def clone(self) -> DDayAECEnv:
        """An independent copy (game, seeding stream, bookkeeping)."""
        return copy.deepcopy(self)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_game"] = self._game.save_state()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        game = _dday.Game()
        game.load_state(state["_game"])
        self.__dict__.update(state)
        self._game = game

    def __repr__(self) -> str:
        return f"<DDayAECEnv phase={self._game.phase!r} agent_selection={self.agent_selection!r}>"


def raw_env(**kwargs: Any) -> DDayAECEnv:
    """The two-player AEC environment, unwrapped (illegal actions raise ValueError)."""
    return DDayAECEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """`raw_env` wrapped as PettingZoo's classic games are: `TerminateIllegalWrapper(illegal_reward=-1)`,
    `AssertOutOfBoundsWrapper`, `OrderEnforcingWrapper`."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
