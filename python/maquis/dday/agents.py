"""`maquis.dday.agents`: the bundled D-Day opponents (RULES D1) as policies over a side's
observation and legal mask. They read nothing but the observation (D3) and their own seeded
stream; all run in Rust (`maquis._core.dday.Agent`, the shared `maquis.common.agents`
classes). `NetworkAgent` and `NetworkSearchAgent` play the trained network (`maquis.dday.network`:
the shipped one, or the file given to `load_network`)."""

from __future__ import annotations

from typing import Any

from .._core import dday as _dday
from ..common.agents import BundledAgent, check_budget
from ..common.trained import NetworkAgentBase, NetworkSearchAgentBase
from .network import ensure_network, load_network

__all__ = ["RandomAgent", "HeuristicAgent", "SearchAgent", "NetworkAgent", "NetworkSearchAgent", "load_network"]


class _Bundled(BundledAgent):
    _tables = _dday


class RandomAgent(_Bundled):
    """D1 `random`: a uniformly random legal action."""

    _id = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)


class HeuristicAgent(_Bundled):
    """D1 `heuristic`: fixed rules of thumb (RULES D1), in Rust."""

    _id = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)


class SearchAgent(_Bundled):
    """D1 `search`: information-set Monte Carlo over the allocations consistent with what the side
    has seen, `budget` heuristic playouts per searched decision (the order, the re-rolls and the
    Resistance's skirmish actions), the German's allocation planned whole, the Resistance's guesses
    and attack valued with the table of attack values; the heuristic plays the rest. In Rust."""

    _id = "search"

    def __init__(self, budget: int = 200, seed: int | None = None) -> None:
        self.budget = check_budget(budget)
        super().__init__(seed, self.budget)

    def __repr__(self) -> str:
        return f"SearchAgent(budget={self.budget})"


class NetworkAgent(NetworkAgentBase):
    """D1 `network`, in Rust. The German plays the trained network's highest-logit legal action.
    The Resistance plays each game under a relabelling of the five zones drawn from its stream
    (`seed`; None: from OS entropy), and samples the network's policy at temperature 1/2: the
    zones are interchangeable, and a fixed labelling or a deterministic reading of the answers
    lets a German learn where the network goes wrong. A new relabelling is drawn at the
    Resistance's first decision of a game; its draws are a hash of the seed, the game's count and
    the observation. `network`: a weight file to load first (None: the loaded network, else the
    shipped one; a ValueError when there is none)."""

    _tables = _dday
    _load = staticmethod(load_network)
    _ensure = staticmethod(ensure_network)

    def __init__(self, network: Any = None, seed: int | None = None) -> None:
        super().__init__(network, seed)


class NetworkSearchAgent(NetworkSearchAgentBase):
    """D1 `network_search`: `search` with the network in the heuristic's place (its choice played
    where the search does not search, the German's allocation and the Resistance's guesses and
    attack included, and the default a candidate must beat where it does; its next best legal
    actions compared first, ranked under the game's relabelling of the zones as `NetworkAgent`'s),
    `budget` playouts per searched decision, in Rust. `network`: as for `NetworkAgent`."""

    _tables = _dday
    _load = staticmethod(load_network)
    _ensure = staticmethod(ensure_network)
