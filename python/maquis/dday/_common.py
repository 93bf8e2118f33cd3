"""What the D-Day environments share: the reward keyword, reset options, info entries, the
observation spaces and rendering (the rest is in `maquis.common`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from .._core import dday as _dday
from ..common.single import check_illegal_action_type, game_renderer, opponent_budget, opponent_id, outcome_rewards
from ..common.single import check_side as _check_side
from ..common.observation import observation_box

#: The reset options of docs/api/dday1944.md every D-Day environment reads (the single env also reads `side`
#: and `opponent`).
SCENARIO_OPTIONS = ("allocation", "attack", "first", "dice")
RENDER_MODES = ["ansi", "rgb_array"]
#: The AEC env also shows "human" (the text view printed, None returned): PettingZoo's render_test
#: builds every env with it.
AEC_RENDER_MODES = [*RENDER_MODES, "human"]
#: The search opponent's budget when `opponent_kwargs` do not give one.
DEFAULT_BUDGET = 200


def reward_kwargs(reward: Any) -> dict[str, Any]:
    """The `reward=` keyword as the engine's (`reward` table, `vp_margin` flag)."""
    table, margin = outcome_rewards(reward, "vp_margin")
    return {"reward": table, "vp_margin": margin}


def budget_of(opponent: Any, opponent_kwargs: Any) -> int:
    """The search budget from `opponent_kwargs` (only `budget` is read; other keys are errors)."""
    return opponent_budget(opponent, opponent_kwargs, DEFAULT_BUDGET)


def check_side(side: Any) -> str:
    return _check_side(side, _dday.SIDES)


def engine_kwargs(side: Any, opponent: Any, opponent_kwargs: Any, reward: Any, illegal_action: Any) -> dict[str, Any]:
    """The keywords of `_core.dday.Env` / `_core.dday.VecEngine` (the engine checks their values);
    an object opponent becomes "external"."""
    check_side(side)
    check_illegal_action_type(illegal_action)
    return dict(
        side=side,
        opponent=network_opponent_id(opponent),
        budget=budget_of(opponent, opponent_kwargs),
        illegal_action=illegal_action,
        **reward_kwargs(reward),
    )


def network_opponent_id(opponent: Any) -> str:
    """`opponent_id` over D-Day's levels; a network level loads the shipped network first (a
    ValueError when there is none)."""
    from .network import NETWORK_LEVELS, ensure_network
    from .opponents import OPPONENTS

    oid = opponent_id(opponent, OPPONENTS)
    if oid in NETWORK_LEVELS:
        ensure_network()
    return oid


def vp_info(vp: tuple[int, int]) -> dict[str, int]:
    return {"resistance": int(vp[0]), "german": int(vp[1])}


#: uint8 (OBSERVATION_SIZE,): what each uint8 value is divided by to give the float32 one, which is
#: also its largest value. Recorded by the Rust encoder itself.
OBSERVATION_DIVISOR = np.array(_dday.OBSERVATION_DIVISOR, dtype=np.uint8)
OBSERVATION_DIVISOR.flags.writeable = False


def observation_space(dtype: str, shape: tuple[int, ...] = (_dday.OBSERVATION_SIZE,)) -> spaces.Box:
    """The Box of D-Day observations of `dtype` ("float32": [0, 1]; "uint8": [0, divisor])."""
    return observation_box(dtype, shape, OBSERVATION_DIVISOR)


#: `maquis.dday.render.render_state(state_dict, mode)`, when the rendering module is there.
render_state = game_renderer("maquis.dday.render", "D-Day")
