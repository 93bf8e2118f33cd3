"""`MaquisVectorEnv`: many games of Maquis stepped together in Rust (`maquis._core.VecEngine`), as a
`gymnasium.vector.VectorEnv`. Rust writes observations, masks, rewards and flags into numpy arrays
allocated once, with the GIL released; this module only builds the spaces and the vector infos."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import _core
from ._core import NUM_ACTIONS, OBS_SIZE
from .observation import check_observation_dtype, observation_space
from .env import check_seed, core_kwargs, options_json, render_state, stream_seed
from .shaping import shaping_json

_INT64 = np.dtype(np.int64)

_MODES = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}


#: Bounds of the constructor's counts: past them the preallocated arrays would not fit in memory
#: (a failed allocation aborts the process instead of raising), or threads would only contend.
MAX_ENVS = 1 << 20
MAX_THREADS = 256


def _autoreset_mode(mode: AutoresetMode | str) -> AutoresetMode:
    if isinstance(mode, AutoresetMode):
        return mode
    if isinstance(mode, str):
        for m, name in _MODES.items():
            if mode in (m.value, name, m.name):
                return m
    raise ValueError(f"autoreset_mode must be an AutoresetMode (NEXT_STEP, SAME_STEP, DISABLED), got {mode!r}")


def _outcome_rewards(reward: Mapping[str, float] | None) -> np.ndarray:
    """The reward of each outcome code (`_core.OUTCOMES` order), then 0 for "no outcome" (-1)."""
    table = _core.Env(reward=dict(reward) if reward is not None else None).reward
    return np.array([table[o] for o in _core.OUTCOMES] + [0.0], dtype=np.float64)


class MaquisVectorEnv(VectorEnv):
    """`num_envs` games of Maquis stepped together in Rust, on `num_threads` threads.

    Each environment is a `maquis.MaquisEnv` (see its docstring for actions, observations,
    rewards and options); the batch follows `gymnasium.vector.VectorEnv`:

    - `reset(seed=None, options=None)`: `seed` an int (env `i` gets `seed + i`) or a list of
      ints/None (one per env); env `i` then plays exactly the episodes of
      `MaquisEnv(...).reset(seed=seed + i)`, for any `num_threads`. `options` hold the single
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

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        *,
        num_threads: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        difficulty: str = "normal",
        mission_pool: str = "second_edition",
        missions: Sequence[str] | None = None,
        deal: str = "uniform",
        reward: Mapping[str, float] | None = None,
        illegal_action: str = "terminate",
        render_mode: str | None = None,
        observation_dtype: str = "float32",
        shaping: bool | Mapping[str, Any] | None = None,
    ) -> None:
        observation_dtype = check_observation_dtype(observation_dtype)
        for name, value, limit in (("num_envs", num_envs, MAX_ENVS), ("num_threads", num_threads, MAX_THREADS)):
            if value is None and name == "num_threads":
                continue
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"{name} must be a positive int, got {type(value).__name__} {value!r:.80}")
            if not 1 <= value <= limit:
                raise ValueError(f"{name} must be an int from 1 to {limit} (num_threads None: one per core), got {value!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        mode = _autoreset_mode(autoreset_mode)
        self._core = _core.VecEngine(
            int(num_envs),
            int(num_threads or 0),
            _MODES[mode],
            **core_kwargs(difficulty, mission_pool, missions, deal, reward, illegal_action),
        )
        self._core.observation_dtype = self.observation_dtype = observation_dtype
        # Potential-based shaping, computed in the Rust step (maquis.shaping); None: no shaping.
        self._shaping = shaping_json(shaping)
        if self._shaping is not None:
            self._core.set_shaping(self._shaping)
        self._outcome_rewards = _outcome_rewards(reward)
        self.num_envs = int(num_envs)
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.render_mode = render_mode
        self.single_observation_space = observation_space(observation_dtype)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        # Equal to batch_space(single_observation_space, num_envs), built without its tiling (seconds
        # for thousands of environments).
        self.observation_space = observation_space(observation_dtype, (self.num_envs, OBS_SIZE))
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        # The arrays Rust writes (allocated once by _core.VecEngine).
        self._obs = self._core.observations
        self._masks = self._core.masks
        self._masks_i8 = self._masks.view(np.int8)  # the same bytes: bool is 0/1 in one byte
        self._rewards = self._core.rewards
        self._terminated = self._core.terminated
        self._truncated = self._core.truncated
        self._outcomes = self._core.outcomes
        self._illegal = self._core.illegal
        self._final_obs = self._core.final_observations
        self._all_true = np.ones(self.num_envs, dtype=bool)
        self._all_true.flags.writeable = False
        # The infos' outcome array, kept and updated in place by Rust on the steps that end
        # episodes (building a 1024-entry object array here cost several µs per step).
        self._outcome_info = self._core.outcome_info
        self._same_step = self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        self._seeded = np.zeros(self.num_envs, dtype=bool)  # streams seeded by a reset
        self._ready = False  # every environment has been reset at least once
        # What `step` takes without converting or checking it again (the engine checks ranges).
        self._action_shape = (self.num_envs,)
        # copy=False without same-step autoreset: `_core.step_plain` returns the whole step (arrays
        # and infos), which saves this method's own work (≈ 0.5 µs of a call).
        self._step_plain = self._core.step_plain
        self.copy = copy

    @property
    def copy(self) -> bool:
        """Whether `reset` and `step` return copies of the arrays Rust writes (else the arrays)."""
        return self._copy

    @copy.setter
    def copy(self, value: bool) -> None:
        self._copy = bool(value)
        plain = not self._copy and not self._same_step
        self._core.set_plain_outputs((self._obs, self._masks_i8, self._all_true) if plain else None)

    @property
    def num_threads(self) -> int:
        """The worker threads stepping the environments."""
        return self._core.num_threads

    # -- Gymnasium API -----------------------------------------------------------------------------

    def _stream_seeds(self, seed: Any, mask: np.ndarray | None) -> list[int | None] | None:
        """Per environment, the stream seed to restart its streams from before this reset, or None
        (keep its streams: the next episode of the same streams)."""
        n = self.num_envs
        targets = np.ones(n, dtype=bool) if mask is None else mask
        if seed is None:
            seeds: list[Any] = [None] * n
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
            seed = check_seed(seed)
            self._np_random, self._np_random_seed = seeding.np_random(seed)
            seeds = [seed + i for i in range(n)]
        elif isinstance(seed, (list, tuple)):
            if len(seed) != n:
                raise ValueError(f"seed as a list must hold num_envs={n} entries, got {len(seed)}")
            seeds = [check_seed(s, f"seed[{i}]") for i, s in enumerate(seed)]
        else:
            raise TypeError(f"seed must be None, an int or a list of num_envs ints/None, got {type(seed).__name__}")
        # The stream seed MaquisEnv.reset(seed=s) would draw, so that env i matches a single env.
        streams: list[int | None] = [
            None if s is None or not targets[i] else stream_seed(seeding.np_random(int(s))[0])
            for i, s in enumerate(seeds)
        ]
        # Environments never seeded and given no seed: a stream seed from np_random.
        fresh = [i for i in range(n) if streams[i] is None and targets[i] and not self._seeded[i]]
        if fresh:
            draws = self.np_random.integers(0, 2**64, size=len(fresh), dtype=np.uint64)
            for i, d in zip(fresh, draws):
                streams[i] = int(d)
        return None if all(s is None for s in streams) else streams

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(f"options must be a dict, got {type(options).__name__}")
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if mask is not None:
            if not isinstance(mask, np.ndarray):
                raise TypeError(f"options['reset_mask'] must be a numpy array, got {type(mask).__name__}")
            if mask.dtype != np.bool_:
                raise TypeError(f"options['reset_mask'] must have dtype np.bool_, got {mask.dtype}")
            if mask.shape != (self.num_envs,):
                raise ValueError(f"options['reset_mask'] must have shape ({self.num_envs},), got {mask.shape}")
            if not mask.any():
                raise ValueError("options['reset_mask'] must select at least one environment")
        opts = options_json(options) if options else None
        before = self._np_random, self._np_random_seed
        try:
            seeds = self._stream_seeds(seed, mask)
            self._core.reset(seeds, mask, opts)
        except BaseException:
            self._np_random, self._np_random_seed = before  # a refused reset changes nothing
            raise
        if seeds is not None:
            self._seeded |= np.array([s is not None for s in seeds])
            self._ready = self._core.ready = bool(self._seeded.all())
        masks = self._masks_i8.copy()
        if mask is not None:
            masks[~mask] = 0  # vector infos hold only the environments reset
        infos = {"action_mask": masks, "_action_mask": np.ones(self.num_envs, bool) if mask is None else mask.copy()}
        return (self._obs.copy() if self.copy else self._obs), infos

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        out = self._step_plain(actions)
        if out is not None:
            return out
        a = actions
        # `sample_actions()` or a policy's int64 array is passed on as it is (the engine copies
        # it, strided or not, and checks the range); anything else is checked and converted,
        # after which a plain step takes it.
        if not (type(a) is np.ndarray and a.dtype is _INT64 and a.shape == self._action_shape and self._ready):
            a = self._checked_actions(actions)
            out = self._step_plain(a)
            if out is not None:
                return out
        # Copies made by Rust's worker threads as they write each row (no second pass); engines
        # without it (D-Day's) are copied below.
        step_copy = getattr(self._core, "step_copy", None) if self.copy else None
        if step_copy is not None:
            obs, masks, ended, illegal = step_copy(a)
            return (
                obs,
                self._rewards.copy(),
                self._terminated.copy(),
                self._truncated.copy(),
                self._step_infos(ended, illegal, masks.view(np.int8)),
            )
        ended, illegal = self._core.step(a)
        return (
            self._obs.copy() if self.copy else self._obs,
            self._rewards.copy() if self.copy else self._rewards,
            self._terminated.copy() if self.copy else self._terminated,
            self._truncated.copy() if self.copy else self._truncated,
            self._step_infos(ended, illegal),
        )

    def _checked_actions(self, actions: Any) -> np.ndarray:
        """`actions` as a contiguous int64 (num_envs,) array, or the error that says what is wrong."""
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions must be integer action indices, got an array of dtype {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {a.shape}")
        if not self._ready:
            never = np.flatnonzero(~self._seeded).tolist()
            raise _core.MaquisError(f"environments {never} were never reset: call reset() before step()")
        return np.ascontiguousarray(a, dtype=np.int64)

    def _step_infos(self, num_ended: int, num_illegal: int, masks: np.ndarray | None = None) -> dict[str, Any]:
        """The step's infos; `num_ended` / `num_illegal`: episodes that ended on this step, on an
        illegal action (counted by Rust, so that most steps skip the end-of-episode entries);
        `masks`: the step's own copy of the masks as int8 (`_core.step_copy`), else copied here."""
        n = self.num_envs
        infos: dict[str, Any] = {
            "action_mask": masks if masks is not None else self._masks_i8.copy() if self.copy else self._masks_i8,
            # Every environment has a mask. copy=False: one read-only array, made once.
            "_action_mask": self._all_true if not self.copy else np.ones(n, dtype=bool),
        }
        if not num_ended:
            return infos
        # Copies (copy=True, or SAME_STEP's final infos); plain steps (`_core.step_plain`) hand
        # out the internal arrays.
        end: dict[str, Any] = {}
        ended, outcome = self._terminated.copy(), self._outcome_info.copy()
        end["outcome"], end["_outcome"] = outcome, ended
        if num_illegal:
            end["illegal_action"], end["_illegal_action"] = self._illegal.copy(), self._illegal.copy()
        if not self._same_step:
            infos.update(end)
            return infos
        # SAME_STEP: the ended environments already hold their next episode; what they returned
        # at the end goes to final_obs / final_info (as gymnasium.vector.SyncVectorEnv does).
        final_obs = np.full(n, None, dtype=object)
        for i in np.flatnonzero(ended):
            final_obs[i] = self._final_obs[i].copy()
        final_info = {"action_mask": np.zeros(self._masks.shape, dtype=np.int8), "_action_mask": ended.copy(), **end}
        infos["final_obs"], infos["_final_obs"] = final_obs, ended.copy()
        infos["final_info"], infos["_final_info"] = final_info, ended.copy()
        return infos

    def render(self) -> tuple[Any, ...] | None:
        """One render per environment (see `MaquisEnv.render`)."""
        if self.render_mode is None:
            return render_state({}, None)
        return tuple(render_state(self._core.state_dict(i), self.render_mode) for i in range(self.num_envs))

    # -- Masks and state ---------------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal actions of every environment, np.bool_ (num_envs, 217)."""
        return self._masks.copy()

    def sample_actions(self) -> np.ndarray:
        """One uniformly random legal action per environment, np.int64 (num_envs,), drawn in Rust
        from each environment's seeded stream (0 for an environment whose episode ended)."""
        return self._core.sample_actions()

    def _index(self, index: Any) -> int:
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"env index must be an int, got {type(index).__name__}")
        if not 0 <= index < self.num_envs:
            raise IndexError(f"env index {index} is out of range for {self.num_envs} environments")
        return int(index)

    def state_dict(self, index: int) -> dict[str, Any]:
        """The full state of environment `index` as plain Python data (as `MaquisEnv.state_dict`).
        An index outside 0…num_envs−1 raises IndexError, a non-integer TypeError."""
        return self._core.state_dict(self._index(index))

    def load_state(self, index: int, state: str) -> None:
        """Continue environment `index` from a `save_state()` string (of either env class); its
        observation and mask rows are rewritten, its reward, flags and outcome cleared, and the
        other environments and every stream are untouched. The episode is over iff that game is
        (the next step then resets it under next_step autoreset). Malformed or inconsistent input
        raises `maquis.MaquisError` (a ValueError), a bad index IndexError / TypeError, a
        non-str state TypeError; nothing changes then."""
        i = self._index(index)
        if not isinstance(state, str):
            raise TypeError(f"load_state expects the str of save_state(), got {type(state).__name__}")
        self._core.load_state(i, state)

    def save_state(self, index: int) -> str:
        """The game of environment `index` as versioned JSON (`MaquisEnv.load_state` reads it).
        An index outside 0…num_envs−1 raises IndexError, a non-integer TypeError."""
        return self._core.save_state(self._index(index))

    # -- Shaping and start-state curricula ---------------------------------------------------------

    @property
    def shaping(self) -> dict[str, Any] | None:
        """The shaping in effect, {"gamma": float, "weights": {term: float}}, or None."""
        js = self._core.shaping
        return None if js is None else json.loads(js)

    def shaping_rewards(self) -> np.ndarray:
        """The shaping term of each environment's last step, float32 (num_envs,): the reward minus
        the outcome reward (0 without shaping). Computed on demand from the step's arrays, so that
        steps cost nothing more; call it before the next step."""
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
            return
        if isinstance(states, (str, bytes)) or not isinstance(states, Sequence):
            raise TypeError(f"states must be a list of save_state() strings, got {type(states).__name__}")
        for i, st in enumerate(states):
            if not isinstance(st, str):
                raise TypeError(f"states[{i}] must be a save_state() string, got {type(st).__name__}")
        w = None if weights is None else [float(x) for x in weights]
        self._core.set_start_states(list(states), w, float(probability))

    def set_start_probability(self, probability: float) -> None:
        """The probability that an episode starts from the start states (annealing), without
        reloading them. Raises `maquis.MaquisError` without a pool or outside [0, 1]."""
        self._core.set_start_probability(float(probability))

    @property
    def start_states(self) -> tuple[int, float] | None:
        """(number of start states, probability), or None without a curriculum."""
        return self._core.start_states
