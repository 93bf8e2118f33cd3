"""`MaquisVectorEnv`: many games of Maquis stepped together in Rust (`maquis._core.maquis.VecEngine`), as a
`gymnasium.vector.VectorEnv`. The batch layer (seeding, autoreset, infos, copies) is the shared
`maquis.common.vector.GameVectorEnv`; this module adds Maquis's keywords, shaping and start-state
curricula."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from .._core import maquis as _core
from ..common.vector import MAX_ENVS, MAX_THREADS, GameVectorEnv
from .env import core_kwargs, render_state
from .game import GAME
from .observation import observation_space
from .shaping import POTENTIAL_TERMS

__all__ = ["MAX_ENVS", "MAX_THREADS", "MaquisVectorEnv"]


def _outcome_rewards(reward: Mapping[str, float] | None) -> np.ndarray:
    """The reward of each outcome code (`_core.OUTCOMES` order), then 0 for "no outcome" (-1)."""
    table = _core.Env(reward=dict(reward) if reward is not None else None).reward
    return np.array([table[o] for o in _core.OUTCOMES] + [0.0], dtype=np.float64)


class MaquisVectorEnv(GameVectorEnv, keywords=GAME.keywords):
    """`num_envs` games of Maquis stepped together in Rust, on `num_threads` threads.

    Each environment is a `maquis.MaquisEnv` (see its docstring for actions, observations,
    rewards and options). Keywords: `num_envs`, `num_threads`, `autoreset_mode` (below), `copy`,
    and the single env's `difficulty`, `mission_pool`, `missions`, `deal`, `reward`,
    `illegal_action`, `render_mode`, `observation_dtype` and `shaping`. The batch follows
    `gymnasium.vector.VectorEnv`:

    - `reset(seed=None, options=None)`: `seed` an int (env `i` gets `maquis.sub_env_seed(seed,
      i)`, a hash of both, so that vectors seeded `seed`, `seed + 1`, ... share no stream) or a
      list of ints/None (one per env); env `i` then plays exactly the episodes of
      `MaquisEnv(...).reset(seed=maquis.sub_env_seed(seed, i))`, for any `num_threads`. `options` hold the single
      env's reset options, for the environments reset now, plus `reset_mask`: a bool (num_envs,)
      array of the environments to reset (the others keep going).
    - `step(actions)`: int array (num_envs,). Observations float32 (num_envs, OBS_SIZE) (uint8
      with `observation_dtype="uint8"`, as for `MaquisEnv`), rewards
      float32, terminated/truncated bool (truncated always False).
    - Autoreset (`metadata["autoreset_mode"]`): `NEXT_STEP` (default) resets an environment on
      the step after its episode ended, ignoring its action; `SAME_STEP` resets it within that
      step, the last observation and info going to `infos["final_obs"]` / `infos["final_info"]`;
      `DISABLED` never resets (stepping it raises; reset it with `reset_mask`).
    - Infos are Gymnasium vector infos (arrays with `_key` masks): `action_mask` int8
      (num_envs, 217) always, `outcome` (object array of str) and `illegal_action` (bool) for the
      environments whose episode ended.
    - `action_masks()` bool (num_envs, 217); `sample_actions()` int64 (num_envs,), a uniformly
      random legal action per environment drawn in Rust from its seeded stream.
    - `copy=False` returns the internal arrays themselves, the infos' `action_mask` and (with
      next-step autoreset) `outcome` included: the next step overwrites them. The observations
      are a read-only view, because a step rewrites only the parts of each row that changed
      (`torch.as_tensor` warns about read-only arrays: give it a copy, or use copy=True).

    - `shaping`: as for `MaquisEnv` (computed in the Rust step; off by default). The rewards
      then include each step's shaping term; `shaping_rewards()` gives it alone.
    - Start-state curricula: `set_start_states(states, weights=None, probability=1.0)` makes
      the episodes that start from then on (autoresets, and resets without `options`) start
      with `probability` from one of `states` (`save_state()` strings) instead of a new game;
      `set_start_probability(p)` anneals it, `set_start_states(None)` ends it.

    Errors (an action out of range, an illegal action with `illegal_action="raise"`) raise
    `maquis.MaquisError` / `maquis.IllegalActionError` naming the environment ("env 3: …"),
    before anything changes.
    """

    _tables = _core
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4, "autoreset_mode": AutoresetMode.NEXT_STEP}
    _observation_space = staticmethod(observation_space)
    _render_state = staticmethod(render_state)

    _engine_kwargs = staticmethod(core_kwargs)
    _potential_terms = POTENTIAL_TERMS

    def _engine_ready(self, core: Any, keywords: dict[str, Any]) -> None:
        self._outcome_rewards = _outcome_rewards(keywords["reward"])
        self._start_states: tuple[list[str], list[float] | None, float] | None = None

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        if self._start_states is not None:  # set after the constructor: not in its arguments
            self._core.set_start_states(*self._start_states)

    # -- Shaping and start-state curricula ---------------------------------------------------------

    def shaping_rewards(self) -> np.ndarray:
        """The shaping term of each environment's last step, float32 (num_envs,): the reward minus
        the outcome reward (0 without shaping). Computed on demand from the step's arrays, so that
        steps cost nothing more; call it before the next step."""
        self._check_idle("shaping_rewards()")
        outcome = self._outcome_rewards[self._outcomes.astype(np.intp)]
        return (self._rewards - outcome).astype(np.float32)

    def set_start_states(
        self, states: Sequence[str] | None, weights: Sequence[float] | None = None, probability: float = 1.0
    ) -> None:
        """Start the episodes that begin from now on (autoresets, and resets without `options`)
        from saved games: with `probability` an episode starts from one of `states`
        (`MaquisEnv.save_state()` / `save_state(i)` strings, games not over), drawn in proportion
        to `weights` (uniformly if None); otherwise it is a new game as usual. None ends the
        curriculum.

        Each draw comes from the environment's own episode stream (the one draw that would seed a
        new game), so trajectories are the same for any `num_threads`, and probability 0 plays
        exactly the episodes of no curriculum. Of a saved game everything the player has seen is
        kept (board, tracks, hand, missions, the patrol discard, a peeked top card); what they
        could not see is redrawn from that draw: the order of the cards left in the patrol deck
        and the game's RNG (future reshuffles), as for `MaquisEnv.determinize`, so an episode
        never replays the saved game's future.

        Raises ValueError (`maquis.MaquisError`) naming the state index for a malformed,
        inconsistent or finished game, and for bad weights or probability; TypeError for states
        that are not a list of str. Nothing changes then."""
        if states is None:
            self._core.set_start_states(None)
            self._start_states = None
            return
        if isinstance(states, (str, bytes)) or not isinstance(states, Sequence):
            raise TypeError(f"states must be a list of save_state() strings, got {type(states).__name__}")
        for i, st in enumerate(states):
            if not isinstance(st, str):
                raise TypeError(f"states[{i}] must be a save_state() string, got {type(st).__name__}")
        w = None if weights is None else [float(x) for x in weights]
        self._core.set_start_states(list(states), w, float(probability))
        # Kept for pickling (the engine's snapshot holds the constructor's configuration only).
        self._start_states = (list(states), w, float(probability))

    def set_start_probability(self, probability: float) -> None:
        """The probability that an episode starts from the start states (annealing), without
        reloading them. Raises `maquis.MaquisError` without a pool or outside [0, 1]."""
        self._core.set_start_probability(float(probability))
        states, weights, _ = self._start_states
        self._start_states = (states, weights, float(probability))

    @property
    def start_states(self) -> tuple[int, float] | None:
        """(number of start states, probability), or None without a curriculum."""
        return self._core.start_states
