"""The bundled policies by id (RULES D1, and the trained network levels), made the same way by play,
eval and the playthroughs."""

from __future__ import annotations

from typing import Any

from ..common.single import BUNDLED_OPPONENTS
from .network import NETWORK_LEVELS

#: D-Day's levels: the shared three, then the trained network alone and guiding the search.
OPPONENTS = (*BUNDLED_OPPONENTS, *NETWORK_LEVELS)


def make_agent(agent_id: str, seed: int | None = None, budget: int = 200) -> Any:
    """A bundled agent of ``maquis.dday.agents`` by its D1 id, seeded."""
    from . import agents

    if agent_id == "random":
        return agents.RandomAgent(seed=seed)
    if agent_id == "heuristic":
        return agents.HeuristicAgent(seed=seed)
    if agent_id == "search":
        return agents.SearchAgent(budget=budget, seed=seed)
    if agent_id == "network":
        return agents.NetworkAgent(seed=seed)
    if agent_id == "network_search":
        return agents.NetworkSearchAgent(budget=budget, seed=seed)
    raise ValueError(f"unknown agent {agent_id!r}: expected one of {', '.join(OPPONENTS)}")


def other(side: str) -> str:
    return "german" if side == "resistance" else "resistance"
