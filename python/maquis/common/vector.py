"""`GameVectorEnv`: the base of every game's native `gymnasium.vector.VectorEnv`, over the game's
Rust `VecEngine` (`_core.VecEngine`, `_core.dday.VecEngine`, …). Rust writes observations, masks,
rewards and flags into numpy arrays allocated once, with the GIL released; this layer checks the
counts, seeds, builds the spaces and the vector infos, and gives the asynchronous step
(`send` / `recv`) and pickling. A game's subclass builds its engine from its keywords and supplies
its tables and rendering."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import _core
from .keywords import declared_init
from .observation import check_observation_dtype
from .registry import VECTOR_KEYWORDS, Keyword
from .seeding import sub_env_seeds
from .single import (
    check_options, check_render_mode, check_seed, declared_shaping, options_json, stream_seed, warn_no_render_mode,
)

_INT64 = np.dtype(np.int64)

#: The engines' names of the autoreset modes.
MODES = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}

#: Bounds of the constructor's counts: past them the preallocated arrays would not fit in memory
#: (a failed allocation aborts the process instead of raising), or threads would only contend.
MAX_ENVS = 1 << 20
MAX_THREADS = 256


def parse_autoreset_mode(mode: AutoresetMode | str) -> AutoresetMode:
    """An `AutoresetMode`, given as one or by its value or name."""
    if isinstance(mode, AutoresetMode):
        return mode
    if isinstance(mode, str):
        for m, name in MODES.items():
            if mode in (m.value, name, m.name):
                return m
    raise ValueError(f"autoreset_mode must be an AutoresetMode (NEXT_STEP, SAME_STEP, DISABLED), got {mode!r}")


def check_counts(num_envs: Any, num_threads: Any) -> None:
    """`num_envs` and `num_threads` (None: one thread per core) as the engines accept them."""
    for name, value, limit in (("num_envs", num_envs, MAX_ENVS), ("num_threads", num_threads, MAX_THREADS)):
        if value is None and name == "num_threads":
            continue
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be a positive int, got {type(value).__name__} {value!r:.80}")
        if not 1 <= value <= limit:
            raise ValueError(f"{name} must be an int from 1 to {limit} (num_threads None: one per core), got {value!r}")


def check_bundled_opponent(opponent: Any, single_env: str) -> None:
    """A vector env's opponent plays in Rust: a bundled id, never a Python object (those play in
    the game's single env, `single_env`)."""
    if not isinstance(opponent, str):
        raise ValueError(
            f"the vector env's opponent must be a bundled id ('random', 'heuristic', 'search'), not a "
            f"{type(opponent).__name__}: Python objects can only play in {single_env}"
        )


class GameVectorEnv(VectorEnv):
    """`num_envs` games stepped together in Rust (see the subclasses for each game's contract).

    What every game's vector env does besides Gymnasium's API:

    - Seeding: `reset(seed=s)` gives env `i` the streams of a single env reset with
      `maquis.sub_env_seed(s, i)`, a hash of (s, i): vectors seeded `s`, `s + 1`, ... (RLlib's
      env runners) share no stream, where Gymnasium's `SyncVectorEnv` (env `i` seeded `s + i`)
      would replay them.
    - `send(actions)` / `recv()`: the step in two halves (EnvPool's API). `send` returns at once
      while Rust steps the batch on its own driver thread; `recv` returns what `step` would have.
      A learner runs its network on one batch of observations while Rust steps the other (two
      vector envs), or does its own work between the two calls.
    - Pickling (pickle, cloudpickle, `copy.deepcopy`): rebuilt from the constructor's arguments,
      then every environment reset so far restored with its game and streams, so that the copy
      steps, samples and resets as the original would; Ray and multiprocessing send it whole.

    A subclass's constructor checks its keywords (`check_counts`, `_check_render_mode`,
    `parse_autoreset_mode`), builds its engine (`MODES[mode]` is the engine's name of the mode) and
    calls `_setup`. Class attributes: `_tables` (the game's module of the extension), `metadata`,
    `_observation_space(dtype, shape)` and `_render_state(state_dict, mode)`.
    """

    _tables: ClassVar[Any]
    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": 1,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    @staticmethod
    def _observation_space(dtype: str, shape: tuple[int, ...]) -> spaces.Box:
        """The game's observation Box of `dtype` and `shape` (by default one observation's)."""
        raise NotImplementedError

    #: The game's shaping potential terms and their default weights (`maquis.common.shaping`),
    #: read when the game declares a `shaping` keyword.
    _potential_terms: ClassVar[Mapping[str, float]] = {}

    #: The single env's public name, in the error for an object opponent (which plays only
    #: there); None for a game without an opponent keyword.
    _single_env_name: ClassVar[str | None] = None

    if TYPE_CHECKING:  # a type checker cannot see the generated `__init__`: accept its keywords
        def __init__(self, *args: Any, **kwargs: Any) -> None: ...

    def __init_subclass__(cls, keywords: Sequence[Keyword] | None = None, **kwargs: Any) -> None:
        # `class XVectorEnv(GameVectorEnv, keywords=GAME.keywords)`: its `__init__` takes
        # `num_envs` (by position too), then VECTOR_KEYWORDS and the game's, by name only
        # (maquis.common.keywords), and calls `_construct`.
        super().__init_subclass__(**kwargs)
        if keywords is not None:
            cls.__init__ = declared_init(cls.__qualname__, (*VECTOR_KEYWORDS, *keywords), positional=1)  # type: ignore[method-assign]

    def _construct(
        self, *, num_envs: Any, num_threads: Any, autoreset_mode: Any, copy: Any, render_mode: Any,
        observation_dtype: Any, **keywords: Any,
    ) -> None:
        """The constructor behind the declared `__init__`: the shared keywords checked, the game's
        own (`_own_keywords`), its engine built from `_engine_kwargs(**keywords)` (`_engine_ready`
        sees it before it is bound), then `_started`."""
        observation_dtype = check_observation_dtype(observation_dtype)
        shaping = declared_shaping(keywords, self._potential_terms)
        self._own_keywords(keywords)
        check_counts(num_envs, num_threads)
        self._check_render_mode(render_mode)
        if self._single_env_name is not None:
            check_bundled_opponent(keywords["opponent"], self._single_env_name)
        engine = self._engine_kwargs(**keywords)
        mode = parse_autoreset_mode(autoreset_mode)
        core = self._tables.VecEngine(int(num_envs), int(num_threads or 0), MODES[mode], **engine)
        if shaping is not None:
            core.set_shaping(shaping)
        self._engine_ready(core, keywords)
        self._setup(core, mode, render_mode=render_mode, observation_dtype=observation_dtype, copy=copy)
        self._started(keywords)

    @property
    def shaping(self) -> dict[str, Any] | None:
        """The shaping in effect, {"gamma": float, "weights": {term: float}}, or None."""
        js = self._core.shaping
        return None if js is None else json.loads(js)

    def _own_keywords(self, keywords: dict[str, Any]) -> None:
        """Checks and keeps the keywords only this game's Python layer reads (before the others)."""

    def _engine_kwargs(self, **keywords: Any) -> dict[str, Any]:
        """The keywords of the game's `_core` constructors from its declared ones (checked)."""
        raise NotImplementedError

    def _engine_ready(self, core: Any, keywords: dict[str, Any]) -> None:
        """What the game sets on its engine `core` before it is bound."""

    def _started(self, keywords: dict[str, Any]) -> None:
        """What the game sets up once its engine is bound."""

    def _check_render_mode(self, render_mode: Any) -> Any:
        return check_render_mode(render_mode, self.metadata["render_modes"])

    def _check_versus(self, num_envs: Any, num_threads: Any, render_mode: Any, opponent: Any, single_env: str) -> None:
        """A two-player game's vector keywords the house checks: the counts, the render mode and a
        bundled opponent (an object plays only in `single_env`)."""
        check_counts(num_envs, num_threads)
        self._check_render_mode(render_mode)
        check_bundled_opponent(opponent, single_env)

    def _start(
        self,
        num_envs: int,
        num_threads: int | None,
        autoreset_mode: AutoresetMode | str,
        engine_kwargs: dict[str, Any],
        *,
        render_mode: str | None,
        observation_dtype: str,
        copy: bool,
    ) -> None:
        """Constructs the game's engine (`_tables.VecEngine`) with `engine_kwargs` and binds it."""
        mode = parse_autoreset_mode(autoreset_mode)
        core = self._tables.VecEngine(int(num_envs), int(num_threads or 0), MODES[mode], **engine_kwargs)
        self._setup(core, mode, render_mode=render_mode, observation_dtype=observation_dtype, copy=copy)

    def _setup(
        self,
        core: Any,
        mode: AutoresetMode,
        *,
        render_mode: str | None,
        observation_dtype: str = "float32",
        copy: bool = True,
    ) -> None:
        """Binds the constructed engine `core`, builds the spaces and takes its arrays."""
        self._core = core
        if core.observation_dtype != observation_dtype:  # new engines' default is float32
            core.observation_dtype = observation_dtype
        self.observation_dtype = observation_dtype
        self.num_envs = n = int(core.num_envs)
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.render_mode = render_mode
        self.single_observation_space = self._observation_space(observation_dtype)
        self.single_action_space = spaces.Discrete(self._tables.NUM_ACTIONS)
        # Equal to batch_space(single_observation_space, num_envs), built without its tiling (slow for
        # thousands of environments).
        self.observation_space = self._observation_space(observation_dtype, (n, *self.single_observation_space.shape))
        self.action_space = batch_space(self.single_action_space, n)
        # The arrays Rust writes (allocated once by the engine).
        self._obs = core.observations
        self._masks = core.masks
        self._masks_i8 = self._masks.view(np.int8)  # the same bytes: bool is 0/1 in one byte
        self._rewards = core.rewards
        self._terminated = core.terminated
        self._truncated = core.truncated
        self._outcomes = core.outcomes
        self._illegal = core.illegal
        self._final_obs = core.final_observations
        self._all_true = np.ones(n, dtype=bool)
        self._all_true.flags.writeable = False
        # The infos' outcome array, kept and updated in place by Rust on the steps that end
        # episodes (building an object array here on every step would cost more than the step).
        self._outcome_info = core.outcome_info
        self._same_step = mode == AutoresetMode.SAME_STEP
        self._seeded = np.zeros(n, dtype=bool)  # streams seeded by a reset
        self._ready = False  # every environment has been reset at least once
        # What `step` takes without converting or checking it again (the engine checks ranges).
        self._action_shape = (n,)
        # copy=False without same-step autoreset: `_core.step_plain` returns the whole step (arrays
        # and infos), which saves this method's own work.
        self._step_plain = core.step_plain
        # copy=True: copies made by Rust's worker threads as they write each row (no second pass).
        self._step_copy = core.step_copy
        # The kind of result the pending `send` gives back ("plain", "copy" or "view"), or None.
        self._sent: str | None = None
        self.copy = copy

    @property
    def copy(self) -> bool:
        """Whether `reset` and `step` return copies of the arrays Rust writes (else the arrays)."""
        return self._copy

    @copy.setter
    def copy(self, value: bool) -> None:
        self._check_idle("setting copy")
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
            # Env i replays the single env seeded sub_env_seed(seed, i), a hash of (seed, i), not
            # seed + i: vectors seeded seed, seed + 1, ... by their callers (RLlib's env runners)
            # would otherwise replay each other's environments.
            if seed < 2**64:  # the same derivation, in Rust (crate::env::seeding)
                hashed = self._core.stream_seeds(seed, n)
                return [s if t else None for s, t in zip(hashed, targets)]
            seeds = sub_env_seeds(seed, n)
        elif isinstance(seed, (list, tuple)):
            if len(seed) != n:
                raise ValueError(f"seed as a list must hold num_envs={n} entries, got {len(seed)}")
            seeds = [check_seed(s, f"seed[{i}]") for i, s in enumerate(seed)]
        else:
            raise TypeError(f"seed must be None, an int or a list of num_envs ints/None, got {type(seed).__name__}")
        # The stream seed the single env's reset(seed=s) would draw, so that env i matches it.
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
        self._check_idle("reset()")
        options = check_options(options)
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
        if self.copy:
            obs, masks, ended, illegal = self._step_copy(a)
            return (
                obs,
                self._rewards.copy(),
                self._terminated.copy(),
                self._truncated.copy(),
                self._step_infos(ended, illegal, masks.view(np.int8)),
            )
        ended, illegal = self._core.step(a)
        return self._obs, self._rewards, self._terminated, self._truncated, self._step_infos(ended, illegal)

    # -- Asynchronous step (EnvPool's send / recv) ---------------------------------------------

    def send(self, actions: Any) -> None:
        """Start stepping every environment with `actions` and return at once: Rust's threads
        step the batch (a driver thread of this env and the worker pool, the GIL released) while
        the caller goes on, e.g. running its network on the last observations. `recv()` then
        returns exactly what `step(actions)` would have; `step` is `send` then `recv`.

        Until `recv`, the step owns the env and its arrays: `step`, `reset`, another `send`, and
        every other method that reads or changes the environments raise RuntimeError, and the
        arrays a `copy=False` step returned must not be read (the step is writing them). The
        arguments are checked here (shape, type, environments never reset); the step's own
        errors (an action out of range, an illegal action with `illegal_action="raise"`) are
        raised by `recv`, and then nothing has changed. Trajectories are the same as `step`'s
        for any `num_threads`."""
        if self._sent is not None:
            raise RuntimeError("send() called while a send() is pending: call recv() first")
        a = actions
        if not (type(a) is np.ndarray and a.dtype is _INT64 and a.shape == self._action_shape and self._ready):
            a = self._checked_actions(actions)
        self._core.send(a, self.copy)
        self._sent = "copy" if self.copy else "view" if self._same_step else "plain"

    def recv(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Wait for the step started by `send` and return what `step` returns (see `send`).
        Raises RuntimeError without a pending `send`; the step's errors as `step` raises them."""
        sent, self._sent = self._sent, None
        if sent is None:
            raise RuntimeError("recv() called without a pending send(actions)")
        out = self._core.recv()
        if sent == "plain":
            return out
        if sent == "copy":
            obs, masks, ended, illegal = out
            if obs.shape[1] != self._obs.shape[1]:  # an env that hands out the first columns only
                obs = np.ascontiguousarray(obs[:, : self._obs.shape[1]])
            return (
                obs,
                self._rewards.copy(),
                self._terminated.copy(),
                self._truncated.copy(),
                self._step_infos(ended, illegal, masks.view(np.int8)),
            )
        ended, illegal = out
        return self._obs, self._rewards, self._terminated, self._truncated, self._step_infos(ended, illegal)

    @property
    def pending(self) -> bool:
        """Whether a `send` waits for its `recv`."""
        return self._sent is not None

    @property
    def worker_spin(self) -> float:
        """Seconds the worker threads spin after a step, waiting for the next, before they sleep
        (200 µs by default; shared by the envs on the same threads, see `share_threads`). Set it
        longer than the time between two steps when a learner on a GPU leaves the cores idle
        meanwhile: every step is then spared the wake-up of sleeping threads. Keep it short when a
        learner on the CPU needs the cores between steps. Setting it outside [0, 1] raises
        ValueError; reading or setting it while a send is pending, RuntimeError."""
        self._check_idle("worker_spin")
        return self._core.worker_spin

    @worker_spin.setter
    def worker_spin(self, seconds: float) -> None:
        self._check_idle("worker_spin")
        self._core.worker_spin = float(seconds)

    def share_threads(self, other: GameVectorEnv) -> None:
        """Step on `other`'s threads from now on (its worker pool and the driver thread of
        `send`; `other` may be of any game): the two envs take turns on one pool, where two pools
        would each keep their cores busy, and a `send` to one queues behind the other's. This is
        for batches stepped in turn while a learner runs its network on the other half
        (`maquis.train.rollout.VectorHalves`). `num_threads` becomes `other`'s; trajectories do
        not change.

        Raises TypeError when `other` is not a maquis vector env, RuntimeError while either has a
        send pending, ValueError when `other` has more threads than this env has environments."""
        if not isinstance(other, GameVectorEnv):
            raise TypeError(f"share_threads() takes a maquis vector env, got {type(other).__name__}")
        self._check_idle("share_threads()")
        other._check_idle("share_threads()")
        self._core.use_worker_threads(other._core.worker_threads())

    def _check_idle(self, what: str) -> None:
        if self._sent is not None:
            raise RuntimeError(f"{what} called while a send() is pending: call recv() first")

    # -- Pickling ----------------------------------------------------------------------------------

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        # The constructor's arguments, kept so that a pickled env is rebuilt from them.
        self = super().__new__(cls)
        self._init_args = (args, kwargs)
        return self

    #: Attributes made by the constructor from the engine, not pickled (the batched spaces hold
    #: bounds for every environment).
    _BOUND = frozenset((
        "_core", "_obs", "_masks", "_masks_i8", "_rewards", "_terminated", "_truncated", "_outcomes",
        "_illegal", "_final_obs", "_outcome_info", "_step_plain", "_step_copy", "_all_true",
        "observation_space", "action_space", "single_observation_space", "single_action_space",
    ))

    def __getstate__(self) -> dict[str, Any]:
        """The constructor's arguments, the env's other attributes (`np_random`, `copy`, which
        environments were reset, ...) and its engine's snapshot: any shaping set since, and each
        environment reset so far with its game and streams, so that the copy steps, samples and
        resets as the original would (with its own `num_threads=None`: one per core where it runs)."""
        self._check_idle("pickling")
        state = {k: v for k, v in self.__dict__.items() if k not in self._BOUND}
        state["_core"] = self._core.snapshot(self._seeded.tolist())
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        snapshot = state.pop("_core")
        args, kwargs = state["_init_args"]
        self.__init__(*args, **kwargs)  # type: ignore[misc]
        self._core.restore(snapshot)
        self.__dict__.update(state)
        self.copy = self._copy
        self._core.ready = self._ready

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
        """One render per environment (see the single env's `render`)."""
        self._check_idle("render()")
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        return tuple(self._render_state(self._core.state_dict(i), self.render_mode) for i in range(self.num_envs))

    def _render_state(self, state_dict: dict[str, Any], mode: str) -> Any:
        """The picture of a `state_dict(i)` in render mode `mode`."""
        raise NotImplementedError

    # -- Masks and state ---------------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal actions of every environment, np.bool_ (num_envs, NUM_ACTIONS)."""
        self._check_idle("action_masks()")
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
        """The full state of environment `index` as plain Python data (as the single env's
        `state_dict`). An index outside 0…num_envs−1 raises IndexError, a non-integer TypeError."""
        return self._core.state_dict(self._index(index))

    def load_state(self, index: int, state: str) -> None:
        """Continue environment `index` from a `save_state()` string (of the single or the vector
        env); its observation and mask rows are rewritten, its reward, flags and outcome cleared,
        its episode and sampling streams set from the save when it holds them (`save_state` of an
        env does: its resets and `sample_actions` then go on as the saved env's), and the other
        environments are untouched. The episode is over iff that
        game is (the next step then resets it under next_step autoreset). Malformed or
        inconsistent input raises `maquis.MaquisError` (a ValueError), a bad index IndexError /
        TypeError, a non-str state TypeError; nothing changes then."""
        i = self._index(index)
        if not isinstance(state, str):
            raise TypeError(f"load_state expects the str of save_state(), got {type(state).__name__}")
        self._core.load_state(i, state)

    def save_state(self, index: int) -> str:
        """The game of environment `index` as versioned JSON, with the env's own streams and its
        action drawn for the next `sample_actions` (the single env's `load_state` reads it too). An
        index outside 0…num_envs−1 raises IndexError, a non-integer TypeError."""
        return self._core.save_state(self._index(index))
