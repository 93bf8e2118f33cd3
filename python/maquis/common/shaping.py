"""The `shaping` keyword of the envs of a game with a shaping potential: potential-based reward
shaping computed in Rust (Ng, Harada & Russell 1999).

With shaping on, every step's reward is the outcome reward plus ``F = gamma * phi(s') - phi(s)``,
where ``phi(s) = sum_k weights[k] * term_k(s)`` over the game's potential terms and ``phi = 0``
once the episode is over. Over a whole episode ``sum_t gamma**t * F_t = -phi(s_0)``: for a learner
that discounts by the same ``gamma`` the optimal policy is unchanged; the shaping only brings the
signal earlier. Each game's terms and their default weights are its own module's
(`maquis.maquis.shaping`, `maquis.maurice.shaping`).

Keyword values: ``None`` or ``False`` (the default): no shaping, rewards exactly as without it.
``True``: the default weights with ``gamma = DEFAULT_GAMMA`` (0.99). A dict
``{"gamma": float in (0, 1], "weights": {term: float}}`` (both keys optional; terms left out keep
their default weight, 0 turns one off). Anything else raises ValueError.
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Mapping
from typing import Any

#: The discount of ``shaping=True`` (give the learner's own with ``{"gamma": ...}``).
DEFAULT_GAMMA = 0.99


def shaping_json(shaping: Any, terms: Mapping[str, float]) -> str | None:
    """The keyword as the JSON the engine reads (None: no shaping), or ValueError saying what is
    wrong; `terms` are the game's potential terms (the engine checks the values again)."""
    if shaping is None or shaping is False:
        return None
    if shaping is True:
        return "{}"
    if not isinstance(shaping, Mapping):
        raise ValueError(
            "shaping must be None, False, True or a dict {'gamma': float, 'weights': {term: float}}, "
            f"got {type(shaping).__name__} {shaping!r:.80}"
        )
    unknown = set(shaping) - {"gamma", "weights"}
    if unknown:
        raise ValueError(f"shaping: unknown key(s) {sorted(map(str, unknown))} (expected 'gamma' and/or 'weights')")
    out: dict[str, Any] = {}
    if "gamma" in shaping:
        g = shaping["gamma"]
        if isinstance(g, bool) or not isinstance(g, numbers.Real) or not 0.0 < float(g) <= 1.0:
            raise ValueError(f"shaping: gamma must be a number in (0, 1], got {g!r}")
        out["gamma"] = float(g)
    if "weights" in shaping:
        ws = shaping["weights"]
        if not isinstance(ws, Mapping):
            raise ValueError(f"shaping: weights must be a dict term -> float, got {type(ws).__name__}")
        weights = {}
        for term, w in ws.items():
            if term not in terms:
                raise ValueError(f"shaping: unknown potential term {term!r} (expected one of {', '.join(terms)})")
            if isinstance(w, bool) or not isinstance(w, numbers.Real) or w != w or abs(float(w)) == float("inf"):
                raise ValueError(f"shaping: weight of {term!r} must be a finite number, got {w!r}")
            weights[term] = float(w)
        out["weights"] = weights
    return json.dumps(out)
