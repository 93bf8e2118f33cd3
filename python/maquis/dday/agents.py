"""`maquis.dday.agents`: the bundled D-Day opponents (RULES D1) as policies over a side's
observation and legal mask. They read nothing but the observation (D3) and their own seeded
stream; all three run in Rust (`maquis._core.dday.Agent`, the shared `maquis.common.agents`
classes)."""

from __future__ import annotations

from .._core import dday as _dday
from ..common.agents import BundledAgent, check_budget

__all__ = ["RandomAgent", "HeuristicAgent", "SearchAgent"]


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
    has seen, `budget` heuristic playouts per searched decision (the attack, the order, the re-rolls
    and the Resistance's skirmish actions; the heuristic plays the rest), in Rust."""

    _id = "search"

    def __init__(self, budget: int = 200, seed: int | None = None) -> None:
        self.budget = check_budget(budget)
        super().__init__(seed, self.budget)

    def __repr__(self) -> str:
        return f"SearchAgent(budget={self.budget})"
