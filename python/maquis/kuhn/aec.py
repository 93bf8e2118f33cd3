"""`raw_env` / `env`: Kuhn poker as a PettingZoo AEC environment, agents `first` and `second`
deciding in turn over `Discrete(2)` (pass, bet) with legal-action masks. The rules run in Rust
(`maquis._core.kuhn.Game`); the PettingZoo bookkeeping is the shared
`maquis.common.aec.TwoPlayerAECEnv`'s."""

from __future__ import annotations

from typing import Any

from .._core import kuhn as _kuhn
from ..common.aec import TwoPlayerAECEnv, aec_constructors
from ._common import ENV_RENDER_MODES, SCENARIO_OPTIONS, payoff_info, render_state

AGENTS = list(_kuhn.SIDES)


class KuhnAECEnv(TwoPlayerAECEnv):
    """*Kuhn poker* for two agents (PettingZoo AEC, `maquis.kuhn.raw_env`).

    - Observations: `{"observation": float32 (13,), "action_mask": int8 (2,)}`; an agent never
      sees the other's card (RULES O1); the mask is all zeros unless the agent is
      `agent_selection`.
    - Rewards: 0 until the end, then win 1 / loss -1 (`reward=` a partial mapping of them), or
      `reward="payoff"`: the chips won or lost / 2 (RULES P2). Zero-sum.
    - At the end both agents are terminated with `infos[agent]["outcome"]` and `["payoff"]`.
    - An illegal action raises `maquis.IllegalActionError`; `maquis.kuhn.env()` wraps this class
      in PettingZoo's `TerminateIllegalWrapper` instead.
    - `reset(seed, options)`: option `cards`; unknown keys are ignored with a UserWarning.

    Version History: v0 (`kuhn_poker_v0`), the initial version.
    """

    metadata = {"name": "kuhn_poker_v0", "render_modes": list(ENV_RENDER_MODES), "is_parallelizable": False, "render_fps": 1}
    _tables = _kuhn
    _scenario_options = SCENARIO_OPTIONS
    _margin = "payoff"
    _render_state = staticmethod(render_state)

    def _margin_rewards(self) -> tuple[float, float]:
        return self._game.payoff("first") / 2.0, self._game.payoff("second") / 2.0

    def _result_info(self) -> dict[str, Any]:
        return {"payoff": payoff_info(self._game.state_dict())}


#: `raw_env(**kw)`: the AEC environment unwrapped; `env(**kw)`: wrapped as PettingZoo's classic games.
raw_env, env = aec_constructors(KuhnAECEnv)
