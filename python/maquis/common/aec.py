"""The base of a two-player zero-sum game as a PettingZoo AEC environment, over the game's Rust
binding `_core.<game>.Game` (each step one decision of the side to move; chance and single-option
decisions run inside it). The subclass supplies the tables, the reward keyword's margin and the
end-of-game infos; `classic_wrappers` wraps it as PettingZoo's classic games are."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .single import (
    ActionNames,
    check_options,
    check_render_mode,
    check_seed,
    one_of,
    options_json,
    outcome_rewards,
    warn_no_render_mode,
)

#: The rewards of the outcomes, each agent's own view, unless `reward=` changes them.
DEFAULT_REWARDS = {"win": 1.0, "draw": 0.0, "loss": -1.0}


class TwoPlayerAECEnv(ActionNames, AECEnv):
    """Two agents (the game's sides, `_tables.SIDES`) deciding in turn over one flat
    `Discrete(NUM_ACTIONS)` action space with legal-action masks.

    - Observations: `{"observation": float32 (OBSERVATION_SIZE,), "action_mask": int8
      (NUM_ACTIONS,)}`, each agent seeing only what it may; the mask is all zeros unless the
      agent is `agent_selection`.
    - Rewards: 0 until the end, then the outcome's reward (`reward=` a partial mapping
      {"win", "draw", "loss"} -> float, or the game's margin name, `_margin`).
    - At the end every agent is terminated, with `infos[agent]["outcome"]` and the game's
      result entries (`_result_info`); the agents are stepped out with `None`.
    - An illegal action raises the engine's ValueError and changes nothing.
    - `reset(seed, options)`: the game's scenario options (`_scenario_options`); unknown keys are
      ignored with a UserWarning naming them (PettingZoo's api_test resets with
      `options={"options": 1}`).

    Subclasses set `_tables` (the game's module of the extension), `metadata`, `_scenario_options`,
    `_margin`, and define `_margin_rewards`, `_result_info` and `_render_state`; a game with
    keywords of its own sets them before `super().__init__` and overrides `_new_game` and
    `_observation_box`.
    """

    _scenario_options: ClassVar[tuple[str, ...]] = ()
    #: The `reward=` name of the game's margin reward (e.g. "vp_margin").
    _margin: ClassVar[str] = "margin"

    def __init__(self, reward: Any = None, render_mode: str | None = None) -> None:
        super().__init__()
        table, margin = outcome_rewards(reward, self._margin)
        self._table = dict(DEFAULT_REWARDS)
        for k, v in (table or {}).items():
            if k not in DEFAULT_REWARDS:
                raise ValueError(f"reward keys are 'win', 'draw' and 'loss', got {k!r}")
            self._table[k] = v
        self._use_margin = margin
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        sides = list(self._tables.SIDES)
        self.possible_agents = sides
        self.agents: list[str] = []
        obs_space = spaces.Dict(
            {
                "observation": self._observation_box(),
                "action_mask": spaces.Box(0, 1, shape=(self._tables.NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in sides}
        self.action_spaces = {a: spaces.Discrete(self._tables.NUM_ACTIONS) for a in sides}
        self._game = self._new_game()
        self._np_random: np.random.Generator | None = None
        self._clear()
        self.agent_selection = self._game.to_move or sides[0]

    def _new_game(self) -> Any:
        """A new game of the binding (a subclass with game keywords passes them here)."""
        return self._tables.Game()

    def _observation_box(self) -> spaces.Box:
        """The space of the "observation" entry (a subclass with other observations overrides it)."""
        return spaces.Box(0.0, 1.0, shape=(self._tables.OBSERVATION_SIZE,), dtype=np.float32)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _clear(self) -> None:
        """Every agent's reward, flags and infos as at the start of a game."""
        agents = self.possible_agents
        self.rewards = {a: 0.0 for a in agents}
        self._cumulative_rewards = {a: 0.0 for a in agents}
        self.terminations = {a: False for a in agents}
        self.truncations = {a: False for a in agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}

    # -- PettingZoo API ----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_seed(seed)
        known = {}
        for key, value in check_options(options).items():
            if key in self._scenario_options:
                known[key] = value
            else:
                package = type(self).__module__.rpartition(".")[0]
                warnings.warn(f"{package}: unknown reset option {key!r} ignored", UserWarning, stacklevel=2)
        opts = options_json(known) if known else None
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
        self.agents = list(self.possible_agents)
        self._clear()
        # No side to move only if setup ended the game; the agents then step out.
        self.agent_selection = self._game.to_move or self.possible_agents[1]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent not in self.possible_agents:
            raise ValueError(f"agent must be {one_of(self.possible_agents)}, got {agent!r}")
        obs = self._game.observation(agent)
        if agent == self.agent_selection and self._game.to_move == agent:
            mask = self._game.action_mask()
        else:
            mask = np.zeros(self._tables.NUM_ACTIONS, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._game.step(action)  # raises before any change if illegal
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.possible_agents}
        if self._game.is_over:
            self._finish()
            # The agents are stepped out with None, the other one first.
            agents = self.possible_agents
            self.agent_selection = agents[1 - agents.index(agent)]
        else:
            self.agent_selection = self._game.to_move
        self._accumulate_rewards()

    def _finish(self) -> None:
        """The final rewards, terminations and infos of a game that is over."""
        margins = self._margin_rewards() if self._use_margin else None
        for i, a in enumerate(self.possible_agents):
            outcome = self._game.outcome_for(a)
            self.rewards[a] = margins[i] if margins is not None else self._table[outcome]
            self.terminations[a] = True
            self.infos[a] = {"outcome": outcome, **self._result_info()}

    def _margin_rewards(self) -> tuple[float, float]:
        """Each agent's margin reward (`reward=` the game's margin name), in `possible_agents` order."""
        raise NotImplementedError

    def _result_info(self) -> dict[str, Any]:
        """The game's end-of-game entries of every agent's info (besides "outcome")."""
        return {}

    def render(self) -> Any:
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        if self.render_mode == "human":  # PettingZoo's human mode: shown, nothing returned
            print(self._render_state(self._game.state_dict(), "ansi"))
            return None
        return self._render_state(self._game.state_dict(), self.render_mode)

    def _render_state(self, state_dict: dict[str, Any], mode: str) -> Any:
        """The picture of a `state_dict()` in render mode `mode`."""
        raise NotImplementedError

    def close(self) -> None:
        pass

    # -- Names, state, saving ----------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self._game.phase

    def legal_actions(self) -> list[int]:
        """The legal actions of `agent_selection` (empty once the game is over)."""
        return self._game.legal_actions()

    def state_dict(self) -> dict[str, Any]:
        """The full state (nothing hidden) as plain Python data (the game's docs/api/<game>.md)."""
        return self._game.state_dict()

    def save_state(self) -> str:
        """The game as versioned JSON, its streams included (`load_state` restores it exactly)."""
        return self._game.save_state()

    def load_state(self, state: str) -> None:
        """Continue from `save_state()`: the agents, rewards and flags follow the loaded game."""
        if not isinstance(state, str):
            raise TypeError(f"load_state expects the str of save_state(), got {type(state).__name__}")
        self._game.load_state(state)
        self.agents = list(self.possible_agents)
        self._clear()
        if self._game.is_over:
            for a in self.possible_agents:
                self.terminations[a] = True
                self.infos[a] = {"outcome": self._game.outcome_for(a), **self._result_info()}
            self.agent_selection = self.possible_agents[0]
        else:
            self.agent_selection = self._game.to_move

    def clone(self) -> Any:
        """An independent copy (game, seeding stream, bookkeeping)."""
        return copy.deepcopy(self)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_game"] = self._game.save_state()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        if "_use_margin" not in state:  # pickles that kept the engine's reward keywords
            state["_use_margin"] = bool(state.get("_reward", {}).get(self._margin, False))
        saved = state.pop("_game")
        self.__dict__.update(state)
        self._game = self._new_game()
        self._game.load_state(saved)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} phase={self._game.phase!r} agent_selection={self.agent_selection!r}>"


def classic_wrappers(env: AECEnv) -> AECEnv:
    """`env` wrapped as PettingZoo's classic games are: `TerminateIllegalWrapper(illegal_reward=-1)`,
    `AssertOutOfBoundsWrapper`, `OrderEnforcingWrapper`."""
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def aec_constructors(cls: type[TwoPlayerAECEnv]) -> tuple[Callable[..., Any], Callable[..., AECEnv]]:
    """A game's `raw_env(**kw)` (its AEC class, unwrapped: illegal actions raise ValueError) and
    `env(**kw)` (`raw_env` in `classic_wrappers`), named as functions of the game's module."""

    def raw_env(**kwargs: Any) -> Any:
        return cls(**kwargs)

    def env(**kwargs: Any) -> AECEnv:
        return classic_wrappers(raw_env(**kwargs))

    raw_env.__doc__ = "The two-player AEC environment, unwrapped (illegal actions raise ValueError)."
    env.__doc__ = classic_wrappers.__doc__.replace("`env` wrapped", "`raw_env` wrapped")
    for fn in (raw_env, env):
        fn.__module__, fn.__qualname__ = cls.__module__, fn.__name__
    return raw_env, env
