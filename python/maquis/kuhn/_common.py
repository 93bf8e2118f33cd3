"""What the Kuhn poker environments share: the keywords (side, opponent, reward), the reset
options, the observation space, and rendering (the rest is in `maquis.common`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from .._core import kuhn as _kuhn
from ..common.observation import observation_box
from ..common.single import check_illegal_action_type, check_reward_value, game_renderer, opponent_id
from ..common.single import check_side as _check_side

#: The bundled levels (RULES A1): Kuhn poker has no search and no network.
OPPONENTS: tuple[str, ...] = ("random", "heuristic")
#: The reset options of docs/rules/kuhn.md N2 (the single env also reads `side` and `opponent`).
SCENARIO_OPTIONS = ("cards",)
RENDER_MODES = ["ansi", "rgb_array"]
#: The single env and the AEC env also show "human" (the text view printed, None returned).
ENV_RENDER_MODES = [*RENDER_MODES, "human"]

#: uint8 (OBSERVATION_SIZE,): every value is a flag, so the uint8 and float32 rows are equal.
OBSERVATION_DIVISOR = np.array(_kuhn.OBSERVATION_DIVISOR, dtype=np.uint8)
OBSERVATION_DIVISOR.flags.writeable = False


def observation_space(dtype: str, shape: tuple[int, ...] = (_kuhn.OBSERVATION_SIZE,)) -> spaces.Box:
    """The Box of Kuhn observations of `dtype` ("float32": [0, 1]; "uint8": [0, 1])."""
    return observation_box(dtype, shape, OBSERVATION_DIVISOR)


def observation_float32(obs: Any) -> np.ndarray:
    """Observations (..., 13) as float32 (uint8 flags converted, float32 rows as they are)."""
    a = np.asarray(obs)
    return a if a.dtype == np.float32 else a.astype(np.float32)


def check_side(side: Any) -> str:
    return _check_side(side, _kuhn.SIDES)


def reward_table(reward: Any) -> dict[str, float] | None:
    """The `reward=` keyword: None (the margin, payoff / 2: RULES P2) or a partial mapping
    {"win", "loss"} -> float (Kuhn poker has no draw)."""
    if reward is None:
        return None
    if not isinstance(reward, Mapping):
        raise TypeError(f"reward must be None (payoff / 2) or a mapping {{'win', 'loss'}} -> float, got {type(reward).__name__}")
    table = {}
    for key, value in reward.items():
        if key not in ("win", "loss"):
            raise ValueError(f"reward keys must be 'win' or 'loss' (Kuhn poker has no draw), got {key!r}")
        table[key] = float(check_reward_value(key, value))
    return table


def engine_kwargs(side: Any, opponent: Any, reward: Any, illegal_action: Any) -> dict[str, Any]:
    """The keywords of `_core.kuhn.Env` / `_core.kuhn.VecEngine`; an object opponent becomes
    "external"."""
    check_side(side)
    check_illegal_action_type(illegal_action)
    return dict(side=side, opponent=opponent_id(opponent, OPPONENTS), reward=reward_table(reward),
                illegal_action=illegal_action)


def payoff_info(state_dict: Mapping[str, Any]) -> dict[str, int]:
    """Chips won or lost by each side at the end, `{"first": int, "second": int}` (RULES P1)."""
    return {side: int(v) for side, v in (state_dict.get("payoff") or {}).items()}


#: `maquis.kuhn.render.render_state(state_dict, mode)`, when the rendering module is there.
render_state = game_renderer("maquis.kuhn.render", "Kuhn poker")
