"""`TwoPlayerMultiAgentEnv` (it subclasses Ray's `MultiAgentEnv`, so this module imports Ray; it
is loaded on first use of `maquis.integrations.rllib.TwoPlayerMultiAgentEnv`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from .rllib import _masked_space, rllib_seed


class TwoPlayerMultiAgentEnv(MultiAgentEnv):
    """A two-player maquis game (a `maquis.common.aec.TwoPlayerAECEnv`: `maquis.dday.raw_env()`,
    `maquis.maurice.raw_env()`) under RLlib's new-API-stack `MultiAgentEnv` conventions.

    - Agents: the game's sides (`possible_agents`, `agents`), each with the observation space
      `{"observations": <the game's observation Box>, "action_mask": float32 (NUM_ACTIONS,)}`
      (RLlib's action-masking keys) and `Discrete(NUM_ACTIONS)`.
    - `reset` and each `step` return the observation of the agent to move only (its mask marks
      its legal actions); the same agent often decides several times in a row.
    - `step({agent: action})` takes the action of the agent to move (other entries are ignored).
      An illegal action, with `illegal_action="terminate"` (the default, as the single envs and
      PettingZoo's classic games do), ends the episode: the offender gets -1 and
      `infos[agent]["illegal_action"] = True`, the other agent 0 (RLlib's env check steps a
      random action); with `illegal_action="raise"` it raises the game's
      `maquis.IllegalActionError` and changes nothing.
    - Rewards: 0 for the mover until the end; at the end both agents get their last observation
      (the mask all zeros), their outcome reward (the AEC env's: win 1 / draw 0 / loss -1 unless
      its `reward=` says otherwise), `terminateds` True for both and `"__all__"`, and the infos
      the AEC env gives them (`outcome` and the game's result). `truncateds["__all__"]` is False.
    - Seeding: `reset(seed=s)` resets the game with `rllib_seed(s, worker_index, vector_index)`.
    """

    def __init__(self, aec_env: Any, worker_index: int = 0, vector_index: int = 0,
                 illegal_action: str = "terminate") -> None:
        super().__init__()
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.aec = aec_env
        self.worker_index, self.vector_index = int(worker_index), int(vector_index)
        self.possible_agents = list(aec_env.possible_agents)
        self.agents = list(self.possible_agents)
        self.num_actions = int(aec_env.action_space(self.possible_agents[0]).n)
        self.observation_spaces = {
            a: _masked_space(aec_env.observation_space(a)["observation"], self.num_actions) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self.metadata = dict(getattr(aec_env, "metadata", {}))
        self.render_mode = getattr(aec_env, "render_mode", None)

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        o = self.aec.observe(agent)
        return {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}

    @property
    def agent_to_move(self) -> str:
        """The agent whose decision the game awaits (PettingZoo's `agent_selection`)."""
        return self.aec.agent_selection

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """A new game (seeded with `rllib_seed(seed, worker_index, vector_index)`; `options` are the
        AEC env's reset options): the observation and an empty info of the agent to move."""
        if seed is not None:
            seed = rllib_seed(seed, self.worker_index, self.vector_index)
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        mover = self.aec.agent_selection
        return {mover: self._obs(mover)}, {mover: {}}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """The decision of the agent to move (`action_dict[agent_to_move]`; a KeyError without
        it): (observations, rewards, terminateds, truncateds, infos) as the class docstring says."""
        mover = self.aec.agent_selection
        if mover not in action_dict:
            raise KeyError(f"the action dict has no action of {mover!r}, the agent to move (it has {sorted(action_dict)})")
        action = action_dict[mover]
        legal = self.aec.observe(mover)["action_mask"]
        if self.illegal_action == "terminate" and not (0 <= int(action) < self.num_actions and legal[int(action)]):
            return self._illegal(mover)
        self.aec.step(int(action))
        if all(self.aec.terminations[a] or self.aec.truncations[a] for a in self.possible_agents):
            agents = self.possible_agents
            obs = {a: self._obs(a) for a in agents}
            rewards = {a: float(self.aec.rewards[a]) for a in agents}
            terminateds = {a: True for a in agents}
            terminateds["__all__"] = True
            truncateds = {a: False for a in agents}
            truncateds["__all__"] = False
            infos = {a: dict(self.aec.infos[a]) for a in agents}
            return obs, rewards, terminateds, truncateds, infos
        nxt = self.aec.agent_selection
        return {nxt: self._obs(nxt)}, {mover: 0.0}, {"__all__": False}, {"__all__": False}, {nxt: {}}

    def _illegal(self, mover: str) -> tuple[dict, dict, dict, dict, dict]:
        """The end of an episode on `mover`'s illegal action (`illegal_action="terminate"`)."""
        agents = self.possible_agents
        obs = {a: self._obs(a) for a in agents}
        for a in agents:
            obs[a]["action_mask"][:] = 0.0
        rewards = {a: -1.0 if a == mover else 0.0 for a in agents}
        terminateds = {**{a: True for a in agents}, "__all__": True}
        truncateds = {**{a: False for a in agents}, "__all__": False}
        infos = {a: {"illegal_action": True, "outcome": "loss"} if a == mover else {} for a in agents}
        return obs, rewards, terminateds, truncateds, infos

    def render(self) -> Any:
        """The AEC env's `render()` (its `render_mode`)."""
        return self.aec.render()

    def close(self) -> None:
        """Closes the AEC env."""
        self.aec.close()

    def state_dict(self) -> dict[str, Any]:
        """The game's full state (`state_dict()` of the AEC env)."""
        return self.aec.state_dict()

    def save_state(self) -> str:
        """The game as versioned JSON (`save_state()` of the AEC env)."""
        return self.aec.save_state()
