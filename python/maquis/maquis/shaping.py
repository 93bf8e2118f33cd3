"""The `shaping` keyword of `MaquisEnv` and `MaquisVectorEnv`: potential-based reward shaping
computed in Rust (Ng, Harada & Russell 1999).

The machinery (the keyword's values, ``phi``, the telescoping sum) is the shared
`maquis.common.shaping`'s; this module gives Maquis's terms.

The potential terms of Maquis (`POTENTIAL_TERMS`, name -> default weight), each computed from the
state the player sees:

- ``missions`` (1.0): per mission, boxes done / boxes, +1 once complete (0 to 4 in all);
- ``hand`` (0.3): tokens in hand / 4, summed over the resources;
- ``morale`` (0.2): morale / 7;
- ``workers`` (0.2): workers recruited and not arrested / the level's workers.

Keyword values: ``None`` or ``False`` (the default): no shaping, rewards exactly as without it.
``True``: the default weights with ``gamma = DEFAULT_GAMMA`` (0.99). A dict
``{"gamma": float in (0, 1], "weights": {term: float}}`` (both keys optional; terms left out keep
their default weight, 0 turns one off). Anything else raises ValueError.
"""

from __future__ import annotations

from typing import Any

from .._core import maquis as _core
from ..common import shaping as _shared
from ..common.shaping import DEFAULT_GAMMA

__all__ = ["DEFAULT_GAMMA", "POTENTIAL_TERMS", "shaping_json"]

#: The potential terms of Maquis and their default weights, in the order of the Rust potential
#: (read from it: missions 1.0, hand 0.3, morale 0.2, workers 0.2).
POTENTIAL_TERMS: dict[str, float] = dict(_core.POTENTIAL_TERMS)


def shaping_json(shaping: Any) -> str | None:
    """The keyword as the JSON the engine reads (None: no shaping), or ValueError saying what is
    wrong (the engine checks the values again)."""
    return _shared.shaping_json(shaping, POTENTIAL_TERMS)
