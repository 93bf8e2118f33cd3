"""The `shaping` keyword of `MauriceEnv` and `MauriceVectorEnv`: potential-based reward shaping
computed in Rust, the shared `maquis.common.shaping` over Maurice Lite's terms.

Why: against an enemy that stays home, a learner that never advances draws every game at
nightfall (E2), and an outcome reward says nothing until then. The terms give the ground covered
and the hits and morale taken as they happen; being potential-based, they leave the best policy of a
learner discounting by the same ``gamma`` unchanged.

The potential terms (`POTENTIAL_TERMS`, name -> default weight), each from the learner's side and
from what both sides see on the map:

- ``advance`` (0.5): 1 − the ground the learner's army has still to cover, 0..1: per unit it
  deployed, the cells by which the unit's gap to the nearest enemy exceeds the heuristic's halt
  (at most 20; a broken unit counts 20), over all of them (`maquis.maurice` search's
  `ground_left`);
- ``morale`` (1.0): the morale margin, own army morale left / its start − the same for the enemy,
  −1..1 (the `"morale_margin"` reward's value at any moment);
- ``wear`` (0.5): the enemy's wear − the learner's, −1..1, where an army's wear is, per unit it
  deployed, its DISR / the DISR that breaks it (a broken unit 1), over all of them: hits tell at
  once, where morale falls only when a unit breaks.

Keyword values are the shared module's: None/False, True (these weights, ``gamma`` 0.99), or
``{"gamma": float, "weights": {term: float}}``. The single env refuses shaping with an object
opponent: its decisions would fall outside the shaped steps.
"""

from __future__ import annotations

from typing import Any

from .._core import maurice as _core
from ..common import shaping as _shared
from ..common.shaping import DEFAULT_GAMMA

__all__ = ["DEFAULT_GAMMA", "POTENTIAL_TERMS", "shaping_json"]

#: The potential terms of Maurice Lite and their default weights, in the order of the Rust
#: potential (read from it: advance 0.5, morale 1.0, wear 0.5).
POTENTIAL_TERMS: dict[str, float] = dict(_core.POTENTIAL_TERMS)


def shaping_json(shaping: Any) -> str | None:
    """The keyword as the JSON the engine reads (None: no shaping), or ValueError saying what is
    wrong (the engine checks the values again)."""
    return _shared.shaping_json(shaping, POTENTIAL_TERMS)
