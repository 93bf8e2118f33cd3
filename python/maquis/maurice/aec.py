"""`raw_env` / `env`: Maurice Lite as a PettingZoo AEC environment, two agents `blue` and `red`
deciding in turn over one flat `Discrete(1447)` action space with legal-action masks. The rules
run in Rust (`maquis._core.maurice.Game`); the PettingZoo bookkeeping is the shared
`maquis.common.aec.TwoPlayerAECEnv`'s."""

from __future__ import annotations

from typing import Any

from gymnasium import spaces

from .._core import maurice as _maurice
from ..common.aec import TwoPlayerAECEnv, aec_constructors
from ..common.observation import check_observation_dtype
from ._common import (
    MARGIN,
    ENV_RENDER_MODES,
    SCENARIO_OPTIONS,
    check_observation_kind,
    check_scenario_keywords,
    morale_info,
    observation_space,
    render_state,
)

AGENTS = list(_maurice.SIDES)


class MauriceAECEnv(TwoPlayerAECEnv):
    """*Maurice Lite* for two agents (PettingZoo AEC, `maquis.maurice.raw_env`).

    Two horse-and-musket armies, `blue` (south) and `red` (north), on a 45 × 30 grid, commanded
    with a hidden hand of cards; an army whose morale falls to 0 loses (docs/rules/maurice.md).
    Each `step` is one decision of `agent_selection` (RULES Q1); chance, automatic steps and
    single-option decisions run inside it, and the next decider is often the same agent (card
    windows, displacements and the passive side's fire pass the turn to the other and back).

    - Observations: `{"observation": float32 (21334,) (1084 with observation="compact"; uint8
      with observation_dtype="uint8"), "action_mask": int8 (1447,)}`, each agent seeing only what
      it may (never the enemy's hand or the deck's order); the mask is all zeros unless the agent
      is `agent_selection`.
    - Rewards: 0 until the end, then win 1 / draw 0 / loss -1 (`reward=` a partial mapping of
      them, or `"morale_margin"`: own morale left / own start − the same for the enemy). Zero-sum
      by default and with the margin.
    - At the end every agent is terminated, with `infos[agent]["outcome"]` and `["morale"]`
      (`{"blue": int, "red": int}`); step the agents out with `None`. Truncation never happens.
    - An illegal action raises `maquis.IllegalActionError` (a ValueError naming the action and the
      phase) and changes nothing; `maquis.maurice.env()` wraps this class in PettingZoo's
      `TerminateIllegalWrapper` instead.
    - Keywords: `scenario="standard"|"skirmish"`, `terrain="scenario"|"random"`,
      `observation="full"|"compact"`, `reward`, `render_mode=None|"ansi"|"rgb_array"|"human"`,
      `observation_dtype="float32"|"uint8"`.
    - `reset(seed, options)`: the reset options of docs/api/maurice.md, over the constructor's
      scenario and terrain; unknown keys are ignored with a UserWarning naming them.
      `state_dict()`, `save_state()`, `load_state()`, `clone()`, pickling, `action_to_str()`,
      `action_from_str()`.

    Version History: v0 (`maurice_lite_v0`), the initial version (docs/rules/maurice.md, 1447
    actions, 21334 features, 1084 compact).
    """

    metadata = {"name": "maurice_lite_v0", "render_modes": list(ENV_RENDER_MODES), "is_parallelizable": False, "render_fps": 2}
    _tables = _maurice
    _scenario_options = SCENARIO_OPTIONS
    _margin = MARGIN
    _render_state = staticmethod(render_state)

    def __init__(
        self,
        scenario: str = "standard",
        terrain: str = "scenario",
        observation: str = "full",
        reward: Any = None,
        render_mode: str | None = None,
        observation_dtype: str = "float32",
    ) -> None:
        check_scenario_keywords(scenario, terrain)
        self.scenario, self.terrain = scenario, terrain
        self.observation = check_observation_kind(observation)
        self.observation_dtype = check_observation_dtype(observation_dtype)
        super().__init__(reward=reward, render_mode=render_mode)

    def _new_game(self) -> Any:
        return _maurice.Game(
            scenario=self.scenario,
            terrain=self.terrain,
            observation=self.observation,
            observation_dtype=self.observation_dtype,
        )

    def _observation_box(self) -> spaces.Box:
        return observation_space(self.observation_dtype, self.observation)

    def _margin_rewards(self) -> tuple[float, float]:
        return self._game.morale_margin("blue"), self._game.morale_margin("red")

    def _result_info(self) -> dict[str, Any]:
        return {"morale": morale_info(self._game.morale())}


#: `raw_env(**kw)`: the AEC environment unwrapped; `env(**kw)`: wrapped as PettingZoo's classic games.
raw_env, env = aec_constructors(MauriceAECEnv)
