"""`DDayEnv`: D-Day 1944 as a single-agent `gymnasium.Env`: the learner plays one side and an
opponent the other, inside `reset` and `step`. A bundled opponent (random, heuristic, search)
plays in Rust; any object with `act(obs, mask) -> int` plays from here."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .._core import dday as _dday
from ..env import check_seed, stream_seed
from ._common import (
    BUNDLED,
    RENDER_MODES,
    SCENARIO_OPTIONS,
    budget_of,
    check_render_mode,
    check_side,
    render,
    reward_kwargs,
    scenario_json,
    vp_info,
)


def opponent_id(opponent: Any) -> str:
    """The engine's id of an opponent: a bundled id, or "external" for an object with `act`."""
    if isinstance(opponent, str):
        if opponent not in BUNDLED:
            raise ValueError(f"opponent must be 'random', 'heuristic', 'search' or an object with act(obs, mask), got {opponent!r}")
        return opponent
    if not callable(getattr(opponent, "act", None)):
        raise TypeError(f"opponent must be a bundled id or an object with act(obs, mask) -> int, got {type(opponent).__name__}")
    return "external"


class DDayEnv(gym.Env[np.ndarray, np.int64]):
    """*French Resistance D-Day 1944* for one learner against an opponent.

    ## Description
    The German secretly spreads four trains and his troops over five rail zones; the Resistance
    interrogates him with higher/lower guesses, attacks two zones, and each attack is a dice
    skirmish on a six-section table; victory points decide (RULES.md). The learner plays `side`;
    the opponent's decisions (its turns, its `hit` choices during the learner's turns), chance
    and single-option decisions all run inside `reset` and `step`.

    ## Action Space
    `Discrete(191)`, the same for both sides and every phase; `maquis.dday.ACTION_NAMES[i]`
    names each index. `info["action_mask"]` (np.int8), `action_masks()` (np.bool_) and
    `legal_actions()` say which are legal.

    ## Observation Space
    `Box(0, 1, (380,), float32)`: exactly what the learner's side may see
    (`maquis.dday.OBSERVATION_LAYOUT` names the slices).

    ## Rewards
    0 until the end, then win 1 / draw 0 / loss -1 (`reward=` a partial mapping of them) or
    `"vp_margin"`: (own VP - opponent VP) / 150.

    ## Episode End
    Termination at the end of the game, or on an illegal action with
    `illegal_action="terminate"` (loss reward, `info["outcome"] = "loss"`,
    `info["illegal_action"] = True`; under "vp_margin" the reward is -1). `truncated` is always
    False. With `illegal_action="raise"` an illegal action raises `maquis.IllegalActionError`
    (a ValueError naming the action and the phase) and changes nothing.

    ## Information
    `info["action_mask"]`, `info["phase"]`; at the end `info["outcome"]` and `info["vp"]`.

    ## Arguments
    `side="resistance"|"german"`, `opponent="random"|"heuristic"|"search"` or an object with
    `act(obs, mask) -> int`, `opponent_kwargs=None` (`{"budget": n}` for search), `reward`,
    `illegal_action="terminate"|"raise"`, `render_mode=None|"ansi"|"rgb_array"`.

    `reset(seed=None, options=None)`: options `allocation`, `attack`, `first`, `dice`, `side`,
    `opponent` (this episode only); unknown keys and bad values raise ValueError.

    Seeding: `reset(seed=s)` seeds `np_random` and draws from it the stream seed of the Rust
    streams: the episode stream gives each episode a game seed g, which seeds the dice, and the
    bundled opponent's stream is derived from g by a fixed rule; `sample_action()` has a stream
    of its own. Env `i` of `DDayVectorEnv(...).reset(seed=s)` plays the episodes of this env
    reset with `seed=s + i`.

    ## Version History
    - v0: initial version (RULES.md of D-Day 1944, 191 actions, 380 features).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        side: str = "resistance",
        opponent: Any = "heuristic",
        opponent_kwargs: Mapping[str, Any] | None = None,
        reward: Any = None,
        illegal_action: str = "terminate",
        render_mode: str | None = None,
    ) -> None:
        self.render_mode = check_render_mode(render_mode)
        check_side(side)
        if not isinstance(illegal_action, str):
            raise TypeError(f"illegal_action must be 'terminate' or 'raise', got {type(illegal_action).__name__}")
        oid = opponent_id(opponent)
        self._core = _dday.Env(
            side=side,
            opponent=oid,
            budget=budget_of(opponent, opponent_kwargs),
            illegal_action=illegal_action,
            **reward_kwargs(reward),
        )
        self._opponent = None if oid != "external" else opponent  # the constructor's object
        self._episode_opponent = None  # the object playing this episode, if any
        self.action_space = spaces.Discrete(_dday.NUM_ACTIONS)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(_dday.OBSERVATION_SIZE,), dtype=np.float32)
        self._streams_seeded = False

    # -- Gymnasium API -----------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        seed = check_seed(seed)
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(f"options must be a dict, got {type(options).__name__}")
        options = dict(options or {})
        unknown = sorted(str(k) for k in options if k not in SCENARIO_OPTIONS + ("side", "opponent"))
        if unknown:
            raise ValueError(f"unknown reset options {unknown}: the keys are {list(SCENARIO_OPTIONS) + ['side', 'opponent']}")
        extra: dict[str, Any] = {}
        episode_opponent = self._opponent
        if "side" in options:
            extra["side"] = check_side(options.pop("side"))
        if "opponent" in options:
            o = options.pop("opponent")
            extra["opponent"] = opponent_id(o)
            episode_opponent = None if isinstance(o, str) else o
        opts = scenario_json(options, extra)
        before = self._np_random, self._np_random_seed
        super().reset(seed=seed)
        stream = stream_seed(self.np_random) if seed is not None or not self._streams_seeded else None
        try:
            self._core.reset(stream, opts)
        except BaseException:
            self._np_random, self._np_random_seed = before  # a refused reset changes nothing
            raise
        self._streams_seeded = True
        self._episode_opponent = episode_opponent
        self._play_opponent()
        return self._core.observation(), self._info(None, False)

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, mask, reward, terminated, _, outcome, illegal = self._core.step(action)
        if not terminated and self._episode_opponent is not None:
            r, t, o = self._play_opponent()
            if t:
                reward, terminated, outcome = r, True, o
            obs = self._core.observation()
        return obs, float(reward), bool(terminated), False, self._info(outcome if terminated else None, illegal)

    def _play_opponent(self) -> tuple[float, bool, str | None]:
        """An object opponent's decisions, up to the learner's next one or the end."""
        end: tuple[float, bool, str | None] = (0.0, False, None)
        while self._episode_opponent is not None and self._core.opponent_to_move():
            obs, mask = self._core.opponent_view()
            a = self._episode_opponent.act(obs, mask)
            try:
                end = self._core.apply_opponent(a)
            except (TypeError, ValueError) as e:
                raise type(e)(f"the opponent's action {a!r} was refused: {e}") from e
        return end

    def _info(self, outcome: str | None, illegal: bool) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._core.action_mask(), "phase": self._core.phase}
        if outcome is not None:
            info["outcome"] = outcome
            info["vp"] = vp_info(self._core.vp())
        if illegal:
            info["illegal_action"] = True
        return info

    def render(self) -> Any:  # type: ignore[override]
        return render(self._core.state_dict(), self.render_mode)

    # -- Masks and names ---------------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal actions now, np.bool_ (191,) (sb3-contrib's convention)."""
        return self._core.action_masks()

    def legal_actions(self) -> list[int]:
        return self._core.legal_actions()

    def sample_action(self) -> int:
        """A uniformly random legal action, from this environment's seeded sampling stream."""
        return self._core.sample_action()

    @staticmethod
    def action_to_str(action: int) -> str:
        return _dday.action_to_str(action)

    @staticmethod
    def action_from_str(name: str) -> int:
        return _dday.action_from_str(name)

    # -- State -------------------------------------------------------------------------------------

    @property
    def side(self) -> str:
        """The learner's side in the current episode."""
        return self._core.side

    @property
    def done(self) -> bool:
        return self._core.done

    def state_dict(self) -> dict[str, Any]:
        """The full state (nothing hidden) as plain Python data (API.md)."""
        return self._core.state_dict()

    def save_state(self) -> str:
        """The game, the learner's side and the bundled opponent with its stream, as versioned JSON."""
        return self._core.save_state()

    def load_state(self, state: str) -> None:
        """Continue from `save_state()` (or from a two-player save, keeping this env's side and
        opponent). Malformed input raises `maquis.MaquisError` and changes nothing."""
        if not isinstance(state, str):
            raise TypeError(f"load_state expects the str of save_state(), got {type(state).__name__}")
        self._core.load_state(state)

    def clone(self) -> DDayEnv:
        """An independent copy (game, opponent, streams, np_random)."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict) -> DDayEnv:
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_core"] = self._core.__getstate__()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        core = _dday.Env()
        core.__setstate__(state["_core"])
        self.__dict__.update(state)
        self._core = core

    def __repr__(self) -> str:
        return f"<DDayEnv {self._core!r}>"
