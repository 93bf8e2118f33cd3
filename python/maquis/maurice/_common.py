"""What the Maurice Lite environments share: the keywords (reward, observation kind, scenario and
terrain), the reset options, info entries, the observation spaces and conversions, and rendering
(the rest is in `maquis.common`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from .._core import maurice as _maurice
from ..common.single import check_illegal_action_type, game_renderer, opponent_budget, opponent_id, outcome_rewards
from ..common.single import check_side as _check_side
from ..common.observation import observation_box
from .shaping import POTENTIAL_TERMS

#: The reset options of docs/api/maurice.md every Maurice environment reads (the single env also
#: reads `side` and `opponent`).
SCENARIO_OPTIONS = (
    "scenario", "terrain", "units", "cinc", "morale", "first", "hands", "deck", "discard", "removed", "shuffles", "dice",
)
RENDER_MODES = ["ansi", "rgb_array"]
#: The single env and the AEC env also show "human" (the text view printed, None returned, as
#: `maquis.common.drawing.render_state_with` does for every game): PettingZoo's render_test
#: builds every env with it.
ENV_RENDER_MODES = [*RENDER_MODES, "human"]
#: The name of the margin reward (`reward="morale_margin"`).
MARGIN = "morale_margin"
#: The search opponent's budget when `opponent_kwargs` do not give one (RULES D1).
DEFAULT_BUDGET = 100
#: The observation kinds (`observation=`) and their sizes.
OBSERVATION_SIZES = {"full": _maurice.OBSERVATION_SIZE, "compact": _maurice.COMPACT_OBSERVATION_SIZE}

#: uint8 (OBSERVATION_SIZE,): what each uint8 value is divided by to give the float32 one, which is
#: also its largest value (a compact row uses the first COMPACT_OBSERVATION_SIZE of them).
OBSERVATION_DIVISOR = np.array(_maurice.OBSERVATION_DIVISOR, dtype=np.uint8)
OBSERVATION_DIVISOR.flags.writeable = False
_FLOAT_DIVISOR = OBSERVATION_DIVISOR.astype(np.float32)


def check_observation_kind(observation: Any) -> str:
    """`observation` if it is "full" or "compact", else a TypeError / ValueError."""
    if not isinstance(observation, str):
        raise TypeError(f"observation must be 'full' or 'compact', got {type(observation).__name__}")
    if observation not in OBSERVATION_SIZES:
        raise ValueError(f"observation must be 'full' or 'compact', got {observation!r}")
    return observation


def check_scenario_keywords(scenario: Any, terrain: Any) -> None:
    """The types of `scenario=` and `terrain=` (the engine checks their values)."""
    for name, value in (("scenario", scenario), ("terrain", terrain)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__}")


def observation_space(dtype: str, kind: str = "full", shape: tuple[int, ...] | None = None) -> spaces.Box:
    """The Box of Maurice observations of `dtype` ("float32": [0, 1]; "uint8": [0, divisor]) and
    `kind` ("full" or "compact"), of `shape` (default: one observation)."""
    size = OBSERVATION_SIZES[check_observation_kind(kind)]
    return observation_box(dtype, shape or (size,), OBSERVATION_DIVISOR[:size])


def observation_float32(obs: Any) -> np.ndarray:
    """Observations (..., 21334) or compact ones (..., 1084) as float32: uint8 rows converted
    exactly (equal bit for bit to what `observation_dtype="float32"` returns), float32 rows as
    they are (not copied)."""
    a = np.asarray(obs)
    if a.dtype == np.float32:
        return a
    size = a.shape[-1] if a.ndim else 0
    if size not in OBSERVATION_SIZES.values():
        raise ValueError(
            f"observations must have {_maurice.OBSERVATION_SIZE} (or, compact, {_maurice.COMPACT_OBSERVATION_SIZE}) "
            f"values in their last axis, got shape {a.shape}"
        )
    if a.dtype != np.uint8:
        return a.astype(np.float32)
    out = a.astype(np.float32)
    out /= _FLOAT_DIVISOR[:size]
    return out


def reward_kwargs(reward: Any) -> dict[str, Any]:
    """The `reward=` keyword as the engine's (`reward` table, `morale_margin` flag)."""
    table, margin = outcome_rewards(reward, MARGIN)
    return {"reward": table, "morale_margin": margin}


def check_side(side: Any) -> str:
    return _check_side(side, _maurice.SIDES)


def engine_kwargs(
    side: Any, opponent: Any, opponent_kwargs: Any, scenario: Any, terrain: Any, reward: Any, illegal_action: Any
) -> dict[str, Any]:
    """The keywords of `_core.maurice.Env` / `_core.maurice.VecEngine` (the engine checks their
    values); an object opponent becomes "external"."""
    check_side(side)
    check_illegal_action_type(illegal_action)
    check_scenario_keywords(scenario, terrain)
    return dict(
        side=side,
        opponent=network_opponent_id(opponent),
        budget=opponent_budget(opponent, opponent_kwargs, DEFAULT_BUDGET),
        scenario=scenario,
        terrain=terrain,
        illegal_action=illegal_action,
        **reward_kwargs(reward),
    )


def network_opponent_id(opponent: Any) -> str:
    """`opponent_id` over Maurice's levels; a network level loads the shipped network first (a
    ValueError when there is none)."""
    from .network import NETWORK
    from .opponents import OPPONENTS

    return NETWORK.ensure_level(opponent_id(opponent, OPPONENTS))


class MauriceKeywords:
    """What both Maurice envs do with their declared keywords: the observation kind is the Python
    layer's (the engine writes full rows), and the scenario and terrain are kept, as reset options
    apply over them; the rest goes to the engine."""

    _potential_terms = POTENTIAL_TERMS

    def _own_keywords(self, keywords: dict[str, Any]) -> None:
        self.observation = check_observation_kind(keywords["observation"])
        self.scenario, self.terrain = keywords["scenario"], keywords["terrain"]

    @staticmethod
    def _engine_kwargs(*, observation: str, **keywords: Any) -> dict[str, Any]:
        return engine_kwargs(**keywords)


def with_defaults(options: Mapping[str, Any] | None, scenario: str, terrain: str) -> dict[str, Any] | None:
    """Reset options over the constructor's `scenario` and `terrain` (the engine's options replace
    its whole scenario); None stays None (the constructor's settings)."""
    if not options:
        return None if options is None else dict(options)
    return {"scenario": scenario, "terrain": terrain, **options}


def morale_info(morale: tuple[int, int]) -> dict[str, int]:
    """Army morale left, `{"blue": int, "red": int}`."""
    return {"blue": int(morale[0]), "red": int(morale[1])}


#: `maquis.maurice.render.render_state(state_dict, mode)`, when the rendering module is there.
render_state = game_renderer("maquis.maurice.render", "Maurice Lite")
