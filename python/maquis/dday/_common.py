"""What the D-Day environments share: the reward keyword, reset options, info dicts, rendering."""

from __future__ import annotations

import importlib
import numbers
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np

from .._core import dday as _dday
from ..env import options_json

#: The reset options of API.md every D-Day environment reads (the single env also reads `side`
#: and `opponent`).
SCENARIO_OPTIONS = ("allocation", "attack", "first", "dice")
BUNDLED = ("random", "heuristic", "search")
RENDER_MODES = ["ansi", "rgb_array"]


def reward_kwargs(reward: Any) -> dict[str, Any]:
    """The `reward=` keyword as the engine's (`reward` table, `vp_margin` flag)."""
    if reward is None:
        return {"reward": None, "vp_margin": False}
    if isinstance(reward, str):
        if reward != "vp_margin":
            raise ValueError(f"reward must be None, a mapping {{'win', 'draw', 'loss'}} -> float or 'vp_margin', got {reward!r}")
        return {"reward": None, "vp_margin": True}
    if not isinstance(reward, Mapping):
        raise TypeError(f"reward must be None, a mapping or 'vp_margin', got {type(reward).__name__}")
    table = {}
    for key, value in reward.items():
        if not isinstance(key, str):
            raise TypeError(f"reward keys must be 'win', 'draw' or 'loss', got {key!r}")
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise TypeError(f"reward[{key!r}] must be a real number, got {type(value).__name__} {value!r}")
        table[key] = float(value)
    return {"reward": table, "vp_margin": False}


def budget_of(opponent: Any, opponent_kwargs: Any) -> int:
    """The search budget from `opponent_kwargs` (only `budget` is read; other keys are errors)."""
    if opponent_kwargs is None:
        return 200
    if not isinstance(opponent_kwargs, Mapping):
        raise TypeError(f"opponent_kwargs must be a dict, got {type(opponent_kwargs).__name__}")
    unknown = sorted(str(k) for k in opponent_kwargs if k != "budget")
    if unknown:
        raise ValueError(f"opponent_kwargs: unknown keys {unknown} (the bundled opponents take only 'budget')")
    if not isinstance(opponent, str) and opponent_kwargs:
        raise ValueError("opponent_kwargs apply to the bundled opponents only")
    budget = opponent_kwargs.get("budget", 200)
    if isinstance(budget, (bool, np.bool_)) or not isinstance(budget, numbers.Integral):
        raise TypeError(f"opponent_kwargs['budget'] must be a positive int, got {type(budget).__name__} {budget!r}")
    if not 1 <= budget <= 2**31:
        raise ValueError(f"opponent_kwargs['budget'] must be a positive int, got {budget}")
    return int(budget)


def check_side(side: Any) -> str:
    if not isinstance(side, str):
        raise TypeError(f"side must be 'resistance' or 'german', got {type(side).__name__}")
    if side not in ("resistance", "german"):
        raise ValueError(f"side must be 'resistance' or 'german', got {side!r}")
    return side


def check_render_mode(render_mode: Any) -> Any:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
    return render_mode


def scenario_json(options: Mapping[str, Any], extra: Mapping[str, Any] | None = None) -> str | None:
    """The scenario options (and `extra`) as the engine's JSON (it checks ids and values)."""
    d = dict(options)
    if extra:
        d.update(extra)
    return options_json(d) if d else None


def vp_info(vp: tuple[int, int]) -> dict[str, int]:
    return {"resistance": int(vp[0]), "german": int(vp[1])}


def render(state_dict: dict, render_mode: str | None) -> Any:
    """`maquis.dday.render.render_state(state_dict, mode)`, when the rendering module is there."""
    if render_mode is None:
        gym.logger.warn(
            "You are calling render() without a render mode: "
            'create the environment with render_mode="ansi" or "rgb_array".'
        )
        return None
    try:
        module = importlib.import_module("maquis.dday.render")
    except ImportError as e:
        if e.name not in ("maquis.dday.render",):
            raise
        module = None
    fn = getattr(module, "render_state", None)
    if fn is None:
        raise NotImplementedError(
            "D-Day rendering needs maquis.dday.render.render_state, which this build does not have"
        )
    return fn(state_dict, render_mode)


__all__ = ["_dday"]
