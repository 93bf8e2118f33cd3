"""`KuhnEnv`: Kuhn poker as a single-agent `gymnasium.Env`: the learner plays one seat and an
opponent the other, inside `reset` and `step`. A bundled opponent (random, heuristic) plays in
Rust; any object with `act(obs, mask) -> int` plays from here."""

from __future__ import annotations

from typing import Any

from .._core import kuhn as _kuhn
from ..common.single import OpponentGameEnv
from .game import GAME
from ._common import ENV_RENDER_MODES, SCENARIO_OPTIONS, engine_kwargs, observation_space, payoff_info, render_state

__all__ = ["KuhnEnv"]


class KuhnEnv(OpponentGameEnv, keywords=GAME.keywords):
    """*Kuhn poker* for one learner against an opponent (docs/rules/kuhn.md).

    ## Description
    Three cards J < Q < K; each side antes 1 and is dealt one card face down; `first` passes or
    bets 1, and one round of betting follows (B1-B4); a showdown or a fold decides (S1). A game is
    one hand of 2 or 3 decisions. The opponent's decisions run inside `reset` and `step`.

    ## Action Space
    `Discrete(2)`: 0 `pass` (check or fold), 1 `bet` (bet or call), both legal at every decision.

    ## Observation Space
    `Box(0, 1, (13,), float32)`: the side's seat, its own card, the side to move and the moves so
    far (`maquis.kuhn.OBSERVATION_LAYOUT`); never the other card (RULES O1).
    `observation_dtype="uint8"` gives the same flags as uint8.

    ## Rewards
    0 until the end, then the learner's payoff in chips / 2 (±0.5 or ±1, RULES P2), or with
    `reward={"win": w, "loss": l}` the outcome's value.

    ## Episode End
    Termination at the end of the hand, or on an illegal action with `illegal_action="terminate"`
    (-1, `info["illegal_action"] = True`); `illegal_action="raise"` raises
    `maquis.IllegalActionError` and changes nothing. `truncated` is always False.

    ## Information
    `info["action_mask"]`, `info["phase"]`; at the end `info["outcome"]` and `info["payoff"]`
    (chips, `{"first": int, "second": int}`).

    ## Arguments
    `side="first"|"second"`, `opponent="random"|"heuristic"` or an object with `act(obs, mask)`,
    `reward`, `illegal_action`, `render_mode=None|"ansi"|"rgb_array"|"human"`, `observation_dtype`.
    `reset(seed, options)`: options `cards` ([first's, second's], RULES N2), `side`, `opponent`.

    Env `i` of `KuhnVectorEnv(...).reset(seed=s)` plays the hands of this env reset with
    `seed=maquis.sub_env_seed(s, i)`.

    ## Version History
    - v0: initial version (docs/rules/kuhn.md, 2 actions, 13 features).
    """

    _tables = _kuhn
    metadata = {"render_modes": list(ENV_RENDER_MODES), "render_fps": 1}
    _scenario_options = SCENARIO_OPTIONS
    _observation_space = staticmethod(observation_space)
    _render_state = staticmethod(render_state)
    _engine_kwargs = staticmethod(engine_kwargs)

    def _result_info(self, info: dict[str, Any]) -> None:
        info["payoff"] = payoff_info(self._core.state_dict())
