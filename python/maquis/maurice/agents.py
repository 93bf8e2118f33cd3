"""`maquis.maurice.agents`: the bundled Maurice Lite opponents (RULES D1) as policies over a side's
full observation and legal mask. They read nothing but the observation (D3) and their own seeded
stream; all run in Rust (`maquis._core.maurice.Agent`). `NetworkAgent` and `NetworkSearchAgent`
play the trained network (`maquis.maurice.network`: the shipped one, or the file given to
`load_network`)."""

from __future__ import annotations

from typing import Any

from .._core import maurice as _maurice
from ..common.agents import BundledAgent, check_budget
from ..common.trained import NetworkAgentBase, NetworkSearchAgentBase
from ._common import DEFAULT_BUDGET, observation_float32
from .network import NETWORK, load_network

__all__ = ["RandomAgent", "HeuristicAgent", "SearchAgent", "NetworkAgent", "NetworkSearchAgent", "make_agent",
           "load_network"]


class _MauriceAgent(BundledAgent):
    _tables = _maurice
    # uint8 rows (observation_dtype="uint8") are converted by their divisors, exactly.
    _float32 = staticmethod(observation_float32)


class RandomAgent(_MauriceAgent):
    """D1 `random`: a uniformly random legal action. `act(obs, mask)`: the full observation
    (21334 values, float32 or uint8) of the side played and its mask (int8 or bool)."""

    _id = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)


class HeuristicAgent(_MauriceAgent):
    """D1 `heuristic`: fixed rules of thumb (RULES D1), in Rust. `act(obs, mask)`: the full
    observation (21334 values, float32 or uint8) of the side played and its mask."""

    _id = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)


class SearchAgent(_MauriceAgent):
    """D1 `search`: Monte Carlo over the hands and decks consistent with what the side has seen,
    `budget` playouts per searched decision (the heuristic plays the rest), in Rust. `act(obs,
    mask)`: the full observation (21334 values, float32 or uint8) of the side played and its mask."""

    _id = "search"

    def __init__(self, budget: int = DEFAULT_BUDGET, seed: int | None = None) -> None:
        self.budget = check_budget(budget)
        super().__init__(seed, self.budget)

    def __repr__(self) -> str:
        return f"SearchAgent(budget={self.budget})"


class NetworkAgent(NetworkAgentBase, _MauriceAgent):
    """D1 `network`: the trained network's highest-logit legal action (it reads the compact part
    of the full observation), in Rust; no stream: the same observation always gets the same
    action. `network`: a weight file to load first (None: the loaded network, else the shipped
    one; a ValueError when there is none)."""

    _load = staticmethod(load_network)
    _ensure = staticmethod(NETWORK.ensure)


class NetworkSearchAgent(NetworkSearchAgentBase, _MauriceAgent):
    """D1 `network_search`: `search` guided by the network where it searches (the round's volley
    choice and command) — its choice the default a candidate must beat, its next best legal
    actions compared first, and its value mixed into the score of every playout that ends before
    the game does, except while the enemy stays home (the search's own value then); the heuristic
    plays the rest — `budget` playouts per searched decision, in
    Rust. `network`: as for `NetworkAgent`."""

    _load = staticmethod(load_network)
    _ensure = staticmethod(NETWORK.ensure)

    def __init__(self, budget: int = DEFAULT_BUDGET, seed: int | None = None, network: Any = None) -> None:
        super().__init__(budget, seed, network)


def make_agent(agent_id: str, seed: int | None = None, budget: int = DEFAULT_BUDGET) -> Any:
    """A bundled agent by its D1 id, seeded (`budget`: the searches' playouts per decision)."""
    if agent_id == "random":
        return RandomAgent(seed=seed)
    if agent_id == "heuristic":
        return HeuristicAgent(seed=seed)
    if agent_id == "search":
        return SearchAgent(budget=budget, seed=seed)
    if agent_id == "network":
        return NetworkAgent()
    if agent_id == "network_search":
        return NetworkSearchAgent(budget=budget, seed=seed)
    raise ValueError(f"unknown agent {agent_id!r}: expected one of random, heuristic, search, network, network_search")
