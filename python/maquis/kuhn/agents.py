"""`maquis.kuhn.agents`: the bundled Kuhn poker levels (RULES A1) as policies over a side's
observation and legal mask, in Rust (`maquis._core.kuhn.Agent`, the shared
`maquis.common.agents.BundledAgent`)."""

from __future__ import annotations

from typing import Any

from .._core import kuhn as _kuhn
from ..common.agents import BundledAgent
from ._common import OPPONENTS, observation_float32

__all__ = ["RandomAgent", "HeuristicAgent", "make_agent", "STRATEGIES"]


class _KuhnAgent(BundledAgent):
    _tables = _kuhn
    _float32 = staticmethod(observation_float32)


class RandomAgent(_KuhnAgent):
    """A1 `random`: pass or bet with probability 1/2 each."""

    _id = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)


class HeuristicAgent(_KuhnAgent):
    """A1 `heuristic`: Kuhn's equilibrium with alpha = 1/3 (RULES V1), unexploitable."""

    _id = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)


def _strategies() -> dict[str, dict[str, float]]:
    return {"random": {i: 0.5 for i in _kuhn.INFOSETS}, "heuristic": _kuhn.equilibrium(1 / 3)}


#: Each level's behaviour strategy: the probability of `bet` at each of `INFOSETS` (what
#: `maquis kuhn exploit --level` answers exactly).
STRATEGIES: dict[str, dict[str, float]] = _strategies()


def make_agent(agent_id: str, seed: int | None = None, budget: int = 1) -> Any:
    """A bundled agent by its A1 id, seeded (`budget` is accepted and unused: Kuhn has no search)."""
    if agent_id == "random":
        return RandomAgent(seed=seed)
    if agent_id == "heuristic":
        return HeuristicAgent(seed=seed)
    raise ValueError(f"unknown agent {agent_id!r}: expected one of {', '.join(OPPONENTS)}")
