"""`DDayEnv`: D-Day 1944 as a single-agent `gymnasium.Env`: the learner plays one side and an
opponent the other, inside `reset` and `step`. A bundled opponent (random, heuristic, search)
plays in Rust; any object with `act(obs, mask) -> int` plays from here."""

from __future__ import annotations

from typing import Any

from .._core import dday as _dday
from ..common.single import OpponentGameEnv, opponent_id
from .game import GAME
from ._common import RENDER_MODES, SCENARIO_OPTIONS, engine_kwargs, network_opponent_id, observation_space, render_state, vp_info

__all__ = ["DDayEnv", "opponent_id"]


class DDayEnv(OpponentGameEnv, keywords=GAME.keywords):
    """*French Resistance D-Day 1944* for one learner against an opponent.

    ## Description
    The German secretly spreads four trains and his troops over five rail zones; the Resistance
    interrogates him with higher/lower guesses, attacks two zones, and each attack is a dice
    skirmish on a six-section table; victory points decide (docs/rules/dday1944.md). The learner plays `side`;
    the opponent's decisions (its turns, its `hit` choices during the learner's turns), chance
    and single-option decisions all run inside `reset` and `step` (a German learner decides all
    11 allocation steps, one legal zone or not: RULES Q0).

    ## Action Space
    `Discrete(191)`, the same for both sides and every phase; `maquis.dday.ACTION_NAMES[i]`
    names each index. `info["action_mask"]` (np.int8), `action_masks()` (np.bool_) and
    `legal_actions()` say which are legal.

    ## Observation Space
    `Box(0, 1, (380,), float32)`: exactly what the learner's side may see
    (`maquis.dday.OBSERVATION_LAYOUT` names the slices). With `observation_dtype="uint8"`, each
    value's count instead, exact, in a quarter of the bytes: the float32 value is the uint8 value
    divided by `maquis.dday.OBSERVATION_DIVISOR`.

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
    `illegal_action="terminate"|"raise"`, `render_mode=None|"ansi"|"rgb_array"`,
    `observation_dtype="float32"|"uint8"`.

    `reset(seed=None, options=None)`: options `allocation`, `attack`, `first`, `dice`, `side`,
    `opponent` (this episode only); unknown keys and bad values raise ValueError.

    Seeding: `reset(seed=s)` seeds `np_random` and draws from it the stream seed of the Rust
    streams: the episode stream gives each episode a game seed g, which seeds the dice, and the
    bundled opponent's stream is derived from g by a fixed rule; `sample_action()` has a stream
    of its own. Env `i` of `DDayVectorEnv(...).reset(seed=s)` plays the episodes of this env
    reset with `seed=maquis.dday.sub_env_seed(s, i)`.

    ## Version History
    - v0: initial version (docs/rules/dday1944.md of D-Day 1944, 191 actions, 380 features).
    """

    _tables = _dday
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}
    _scenario_options = SCENARIO_OPTIONS
    _opponent_id = staticmethod(network_opponent_id)
    _observation_space = staticmethod(observation_space)
    _render_state = staticmethod(render_state)
    _engine_kwargs = staticmethod(engine_kwargs)

    def _result_info(self, info: dict[str, Any]) -> None:
        info["vp"] = vp_info(self._core.vp())
