"""`raw_env` / `env`: D-Day 1944 as a PettingZoo AEC environment, two agents `resistance` and
`german` deciding in turn over one flat `Discrete(191)` action space with legal-action masks.
The rules run in Rust (`maquis._core.dday.Game`); the PettingZoo bookkeeping is the shared
`maquis.common.aec.TwoPlayerAECEnv`'s."""

from __future__ import annotations

from typing import Any


from .._core import dday as _dday
from ..common.aec import TwoPlayerAECEnv, aec_constructors
from ._common import AEC_RENDER_MODES, SCENARIO_OPTIONS, render_state, vp_info

AGENTS = list(_dday.SIDES)


class DDayAECEnv(TwoPlayerAECEnv):
    """*French Resistance D-Day 1944* for two agents (PettingZoo AEC, `maquis.dday.raw_env`).

    The German (`german`) allocates his trains and troops over five rail zones in secret; the
    Resistance (`resistance`) interrogates him, attacks two zones, and two dice skirmishes are
    fought; victory points decide (docs/rules/dday1944.md). Each `step` is one decision of `agent_selection`;
    chance and single-option decisions run inside it (never an allocation step: the German
    decides all 11, so their number tells the Resistance nothing, RULES Q0), and the next
    decider is often the same agent (a `hit` choice passes to the target's owner and back).

    - Observations: `{"observation": float32 (380,), "action_mask": int8 (191,)}`, each agent
      seeing only what it may (the Resistance never sees unrevealed zones); the mask is all
      zeros unless the agent is `agent_selection`.
    - Rewards: 0 until the end, then win 1 / draw 0 / loss -1 (`reward=` a partial mapping of
      them, or `"vp_margin"`: (own VP - opponent VP) / 150). Zero-sum by default.
    - At the end every agent is terminated, with `infos[agent]["outcome"]` and `["vp"]`; step
      the agents out with `None`. Truncation never happens.
    - An illegal action raises `maquis.IllegalActionError` (a ValueError naming the action and the
      phase) and changes nothing; `maquis.dday.env()` wraps this class in PettingZoo's
      `TerminateIllegalWrapper` instead.
    - `reset(seed, options)`: options `allocation`, `attack`, `first`, `dice` (docs/api/dday1944.md); unknown
      keys are ignored with a UserWarning naming them. `state_dict()`, `save_state()`,
      `load_state()`, `clone()`, pickling, `action_to_str()`, `action_from_str()`.
    """

    metadata = {"name": "dday1944_v0", "render_modes": list(AEC_RENDER_MODES), "is_parallelizable": False, "render_fps": 1}
    _tables = _dday
    _scenario_options = SCENARIO_OPTIONS
    _margin = "vp_margin"
    _render_state = staticmethod(render_state)

    def _margin_rewards(self) -> tuple[float, float]:
        vp = self._game.vp()
        return (vp[0] - vp[1]) / 150.0, (vp[1] - vp[0]) / 150.0

    def _result_info(self) -> dict[str, Any]:
        return {"vp": vp_info(self._game.vp())}


#: `raw_env(**kw)`: the AEC environment unwrapped; `env(**kw)`: wrapped as PettingZoo's classic games.
raw_env, env = aec_constructors(DDayAECEnv)
