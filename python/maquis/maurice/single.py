"""`MauriceEnv`: Maurice Lite as a single-agent `gymnasium.Env`: the learner plays one side and an
opponent the other, inside `reset` and `step`. A bundled opponent (random, heuristic, search)
plays in Rust; any object with `act(obs, mask) -> int` plays from here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat

import numpy as np

from .._core import maurice as _maurice
from ..common.single import OpponentGameEnv, opponent_id
from .game import GAME
from ._common import (
    OBSERVATION_SIZES,
    ENV_RENDER_MODES,
    SCENARIO_OPTIONS,
    MauriceKeywords,
    network_opponent_id,
    morale_info,
    observation_space,
    render_state,
    with_defaults,
)

__all__ = ["MauriceEnv", "opponent_id"]


class CompactOpponent:
    """An object opponent of a compact-observation env: it gets the opponent side's compact
    observation, as the learner gets its own (API.md: "of the same kind")."""

    def __init__(self, opponent: Any) -> None:
        self.opponent = opponent

    def act(self, obs: np.ndarray, mask: np.ndarray) -> Any:
        return self.opponent.act(obs[: _maurice.COMPACT_OBSERVATION_SIZE], mask)


def object_opponent(opponent: Any, observation: str) -> Any:
    """The object that plays an outside opponent: itself, or with a compact observation a
    `CompactOpponent` of it. The bundled agents' objects read the full observation (D1) whatever
    the learner's."""
    from ..common.agents import BundledAgent

    if observation != "compact" or isinstance(opponent, BundledAgent):
        return opponent
    return CompactOpponent(opponent)


class MauriceEnv(MauriceKeywords, OpponentGameEnv, keywords=GAME.keywords):
    """*Maurice Lite* for one learner against an opponent.

    ## Description
    Two horse-and-musket armies on a 45 × 30 grid, commanded with a hidden hand of cards: each
    round the active side may volley, then chooses a command (march, charge, bombard, rally, or
    pass), activates a force with the cards' span and carries it out; the passive side answers
    with interrupts and modifiers. An army whose morale falls to 0 loses (docs/rules/maurice.md).
    The learner plays `side`; the opponent's decisions (its rounds, its card windows, fire and
    displacements during the learner's round), chance and single-option decisions all run inside
    `reset` and `step`.

    ## Action Space
    `Discrete(1447)`, the same for both sides and every phase; `maquis.maurice.ACTION_NAMES[i]`
    names each index. `info["action_mask"]` (np.int8), `action_masks()` (np.bool_) and
    `legal_actions()` say which are legal.

    ## Observation Space
    `Box(0, 1, (21334,), float32)`: exactly what the learner's side may see
    (`maquis.maurice.OBSERVATION_LAYOUT` names the slices; the last one, `planes`, holds 15 maps
    of 30 × 45). With `observation="compact"`, the first 1084 values only (no maps: for fixed
    terrain). With `observation_dtype="uint8"`, each value's count instead, exact, in a quarter of
    the bytes: the float32 value is the uint8 value divided by `maquis.maurice.OBSERVATION_DIVISOR`.

    ## Rewards
    0 until the end, then win 1 / draw 0 / loss -1 (`reward=` a partial mapping of them) or
    `"morale_margin"`: own morale left / own starting morale − the same for the enemy, in [−1, 1].
    With `shaping` (True, or `{"gamma": ..., "weights": {"advance": ..., "morale": ...}}`; off by
    default), each step's reward also holds the potential-based term `gamma * phi(s') - phi(s)`,
    given alone as `info["shaping"]`, over the ground covered towards the enemy and the morale
    margin (`maquis.maurice.shaping`; `potential()` is phi now). It needs a bundled opponent.

    ## Episode End
    Termination at the end of the game, or on an illegal action with
    `illegal_action="terminate"` (loss reward, `info["outcome"] = "loss"`,
    `info["illegal_action"] = True`; under "morale_margin" the reward is -1). `truncated` is
    always False (a game's length is bounded, RULES E4). With `illegal_action="raise"` an illegal
    action raises `maquis.IllegalActionError` (a ValueError naming the action and the phase) and
    changes nothing.

    ## Information
    `info["action_mask"]`, `info["phase"]`; at the end `info["outcome"]` and `info["morale"]`
    (`{"blue": int, "red": int}`, army morale left).

    ## Arguments
    `side="blue"|"red"`, `opponent="random"|"heuristic"|"search"` or an object with
    `act(obs, mask) -> int` (given the opponent side's observation of the same kind; the bundled
    agents' objects always the full one),
    `opponent_kwargs=None` (`{"budget": n}` for search, default 100), `scenario="standard"|"skirmish"`,
    `terrain="scenario"|"random"`, `observation="full"|"compact"`, `reward`,
    `illegal_action="terminate"|"raise"`, `render_mode=None|"ansi"|"rgb_array"|"human"`,
    `observation_dtype="float32"|"uint8"`.

    `reset(seed=None, options=None)`: options `scenario`, `terrain`, `units`, `cinc`, `morale`,
    `first`, `hands`, `deck`, `discard`, `removed`, `shuffles`, `dice`, `side`, `opponent` (this
    episode only, over the constructor's settings); unknown keys and bad values raise ValueError.

    Seeding: `reset(seed=s)` seeds `np_random` and draws from it the stream seed of the Rust
    streams: the episode stream gives each episode a game seed g, which seeds the dice, cards and
    terrain streams, and the bundled opponent's stream is derived from g by a fixed rule;
    `sample_action()` has a stream of its own. Env `i` of `MauriceVectorEnv(...).reset(seed=s)`
    plays the episodes of this env reset with `seed=maquis.sub_env_seed(s, i)`.

    ## Version History
    - v0: initial version (docs/rules/maurice.md, 1447 actions, 21334 features, 1084 compact).
    """

    _tables = _maurice
    metadata = {"render_modes": list(ENV_RENDER_MODES), "render_fps": 2}
    _scenario_options = SCENARIO_OPTIONS
    _opponent_id = staticmethod(network_opponent_id)
    _render_state = staticmethod(render_state)

    def _outside_opponent(self, opponent: Any) -> Any:
        return object_opponent(opponent, self.observation)

    def _observation_space(self, dtype: str) -> Any:  # type: ignore[override]
        return observation_space(dtype, self.observation)

    def _cut(self, obs: np.ndarray) -> np.ndarray:
        """The learner's observation of this env's kind (the engine writes the full one)."""
        if self.observation == "compact":
            return obs[: OBSERVATION_SIZES["compact"]].copy()
        return obs

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(options, Mapping) and "opponent" in options:
            o = options["opponent"]
            if not isinstance(o, str) and callable(getattr(o, "act", None)):
                options = {**options, "opponent": object_opponent(o, self.observation)}
        opts = with_defaults(options, self.scenario, self.terrain) if isinstance(options, Mapping) else options
        obs, info = super().reset(seed=seed, options=opts)
        return self._cut(obs), info

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = super().step(action)
        return self._cut(obs), reward, terminated, truncated, info

    def _result_info(self, info: dict[str, Any]) -> None:
        info["morale"] = morale_info(self._core.morale())
