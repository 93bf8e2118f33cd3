"""Positions for start-state curricula (`MaquisVectorEnv.set_start_states`): games played by a
bundled agent, saved every few decisions.

>>> states = record_states(agent="heuristic", episodes=50, difficulty="normal", every=4)
>>> vec.set_start_states(states, probability=0.5)
"""

from __future__ import annotations

from typing import Any

from .agents import AGENT_NAMES, make_agent
from .env import MaquisEnv


def record_states(
    agent: str = "heuristic",
    episodes: int = 20,
    difficulty: str = "normal",
    every: int = 5,
    seed: int = 0,
    min_decision: int = 0,
    agent_kwargs: dict[str, Any] | None = None,
    **env_kwargs: Any,
) -> list[str]:
    """`save_state()` strings of the positions met by `agent` ("random", "heuristic", "search",
    ...: `maquis.maquis.agents.AGENT_NAMES`) over `episodes` games of `difficulty` seeded `seed`,
    `seed + 1`, ...: every `every`-th decision from decision `min_decision` on (games not over).
    Deterministic for given arguments. `env_kwargs` go to `MaquisEnv` (mission_pool, ...)."""
    if agent not in AGENT_NAMES:
        raise ValueError(f"unknown agent {agent!r}: expected one of {', '.join(AGENT_NAMES)}")
    for name, value, low in (("episodes", episodes, 1), ("every", every, 1), ("min_decision", min_decision, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an int ≥ {low}, got {value!r}")
    player = make_agent(agent, seed=seed, **(agent_kwargs or {}))
    env = MaquisEnv(difficulty=difficulty, **env_kwargs)
    states: list[str] = []
    for k in range(episodes):
        obs, info = env.reset(seed=seed + k)
        decision, done = 0, False
        while not done:
            if decision >= min_decision and (decision - min_decision) % every == 0:
                states.append(env.save_state())
            obs, _, done, _, info = env.step(player.act(obs, info["action_mask"]))
            decision += 1
    return states
