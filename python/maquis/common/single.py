"""The base of every game's single-agent `gymnasium.Env`: a thin layer over the game's Rust env
(`_core.Env`, `_core.dday.Env`, …), which runs the rules, the rewards and the seeded streams.

- `GameEnv`: seeding (`check_seed`, `stream_seed`), reset/step plumbing, masks and action names,
  state saving, copying and pickling, render-mode checks, the observation dtype.
- `OpponentGameEnv`: a two-player game whose learner plays one side against an opponent, bundled
  (played in Rust) or any object with `act(obs, mask) -> int` (played from here).

A game's subclass supplies its tables (`_tables`: the game's module of the extension), its
keywords and reset options, its info extras and its rendering.
"""

from __future__ import annotations

import copy
import importlib
import json
import numbers
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .keywords import declared_init
from .observation import check_observation_dtype
from .registry import Keyword
from .shaping import shaping_json


#: The ids of the bundled opponents of the two-player games (their RULES D1).
BUNDLED_OPPONENTS = ("random", "heuristic", "search")


def stream_seed(rng: np.random.Generator) -> int:
    """The 64-bit stream seed an environment draws from its `np_random` when reset with a seed."""
    return int(rng.integers(0, 2**64, dtype=np.uint64))


def check_seed(seed: Any, what: str = "seed") -> int | None:
    """A reset seed as a Python int (None stays None); anything else is refused before any state
    changes (Gymnasium's own check raises its private error type, and only after reseeding)."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"{what} must be a non-negative int or None, got {type(seed).__name__} {seed!r:.80}")
    if seed < 0:
        raise ValueError(f"{what} must be a non-negative int, got {seed}")
    return int(seed)


def _jsonable(o: Any) -> Any:
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, Mapping):
        return dict(o)
    raise TypeError(
        f"reset options must hold only dicts, lists, str, int, float, bool and None, got {type(o).__name__} {o!r}"
    )


def options_json(options: Mapping[str, Any] | None) -> str | None:
    """Reset options as the JSON the engine reads (it rejects unknown keys and ids)."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict, got {type(options).__name__}")
    return json.dumps(dict(options), default=_jsonable)


def check_options(options: Any) -> dict[str, Any]:
    """Reset options as a new dict ({} for None); a non-mapping is a TypeError."""
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict, got {type(options).__name__}")
    return dict(options or {})


def one_of(names: Sequence[Any]) -> str:
    """"'a' or 'b'", "None, 'a' or 'b'": the allowed values of a keyword, for error messages."""
    shown = [n if n == "None" else repr(n) for n in names]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def check_render_mode(render_mode: Any, modes: Sequence[str]) -> Any:
    """`render_mode` if it is None or one of `modes`, else a ValueError naming them."""
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be {one_of(['None', *modes])}, got {render_mode!r}")
    return render_mode


def warn_no_render_mode() -> None:
    """Gymnasium's warning for `render()` on an environment made without a render mode."""
    gym.logger.warn(
        "You are calling render() without a render mode: "
        'create the environment with render_mode="ansi" or "rgb_array".'
    )


def check_side(side: Any, sides: Sequence[str]) -> str:
    """`side` if it is one of the game's `sides`, else a TypeError / ValueError naming them."""
    if not isinstance(side, str):
        raise TypeError(f"side must be {one_of(sides)}, got {type(side).__name__}")
    if side not in sides:
        raise ValueError(f"side must be {one_of(sides)}, got {side!r}")
    return side


def check_illegal_action_type(illegal_action: Any) -> None:
    """The type of `illegal_action=` (its value is checked by the engine)."""
    if not isinstance(illegal_action, str):
        raise TypeError(f"illegal_action must be 'terminate' or 'raise', got {type(illegal_action).__name__}")


#: The levels that may play a weight file of the user's: `network@FILE`, `network_search@FILE`.
FILE_LEVELS = ("network", "network_search")


def opponent_id(opponent: Any, opponents: tuple[str, ...] = BUNDLED_OPPONENTS) -> str:
    """The engine's id of an opponent: one of the game's bundled `opponents`; `network@FILE` or
    `network_search@FILE` where the game has that level (FILE made absolute, so that a pickled env
    finds it from another directory; the engine reads and checks it); or "external" for an object
    with `act`."""
    if isinstance(opponent, str) and "@" in opponent:
        return file_opponent_id(opponent, opponents)
    if isinstance(opponent, str):
        if opponent not in opponents:
            names = ", ".join(repr(o) for o in opponents)
            raise ValueError(f"opponent must be one of {names} or an object with act(obs, mask), got {opponent!r}")
        return opponent
    if not callable(getattr(opponent, "act", None)):
        raise TypeError(f"opponent must be a bundled id or an object with act(obs, mask) -> int, got {type(opponent).__name__}")
    return "external"


def file_opponent_id(opponent: str, opponents: tuple[str, ...]) -> str:
    """`level@FILE` with FILE absolute: a ValueError unless `level` is a network level of
    `opponents`, a FileNotFoundError when FILE is not a file."""
    level, path = opponent.split("@", 1)
    levels = [o for o in opponents if o in FILE_LEVELS]
    if level not in levels:
        named = " and ".join(f"'{o}@FILE'" for o in levels) or "none of this game's opponents"
        raise ValueError(f"opponent {opponent!r}: a weight file is played by {named}")
    if not path:
        raise ValueError(f"opponent {opponent!r}: no file after '@'")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"opponent {opponent!r}: no such file {path!r}")
    return f"{level}@{os.path.abspath(path)}"


def opponent_budget(opponent: Any, opponent_kwargs: Any, default: int) -> int:
    """The search budget from `opponent_kwargs` (only `budget` is read; other keys are errors)."""
    if opponent_kwargs is None:
        return default
    if not isinstance(opponent_kwargs, Mapping):
        raise TypeError(f"opponent_kwargs must be a dict, got {type(opponent_kwargs).__name__}")
    unknown = sorted(str(k) for k in opponent_kwargs if k != "budget")
    if unknown:
        raise ValueError(f"opponent_kwargs: unknown keys {unknown} (the bundled opponents take only 'budget')")
    if not isinstance(opponent, str) and opponent_kwargs:
        raise ValueError("opponent_kwargs apply to the bundled opponents only")
    budget = opponent_kwargs.get("budget", default)
    if isinstance(budget, (bool, np.bool_)) or not isinstance(budget, numbers.Integral):
        raise TypeError(f"opponent_kwargs['budget'] must be a positive int, got {type(budget).__name__} {budget!r}")
    if not 1 <= budget <= 2**31:
        raise ValueError(f"opponent_kwargs['budget'] must be a positive int, got {budget}")
    return int(budget)


def outcome_rewards(reward: Any, margin: str) -> tuple[dict[str, float] | None, bool]:
    """A two-player game's `reward=` keyword: None (the defaults), a partial mapping
    {"win", "draw", "loss"} -> float, or the game's `margin` name; as (table or None, margin on)."""
    if reward is None:
        return None, False
    if isinstance(reward, str):
        if reward != margin:
            raise ValueError(f"reward must be None, a mapping {{'win', 'draw', 'loss'}} -> float or {margin!r}, got {reward!r}")
        return None, True
    if not isinstance(reward, Mapping):
        raise TypeError(f"reward must be None, a mapping or {margin!r}, got {type(reward).__name__}")
    table = {}
    for key, value in reward.items():
        if not isinstance(key, str):
            raise TypeError(f"reward keys must be 'win', 'draw' or 'loss', got {key!r}")
        table[key] = float(check_reward_value(key, value))
    return table, False


def check_reward_value(key: Any, value: Any) -> Any:
    """`value` if it is a real number (not a bool), else a TypeError naming `reward[key]`."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"reward[{key!r}] must be a real number, got {type(value).__name__} {value!r}")
    return value


def game_renderer(module: str, title: str) -> Any:
    """A game's `render_state(state_dict, render_mode)`: `module`'s (``maquis.<game>.render``),
    imported when first drawn, so that the environments work in a build without it (then a
    NotImplementedError naming `title`'s rendering)."""

    def render_state(state_dict: dict, render_mode: str) -> Any:
        try:
            mod = importlib.import_module(module)
        except ImportError as e:
            if e.name != module:
                raise
            mod = None
        fn = getattr(mod, "render_state", None)
        if fn is None:
            raise NotImplementedError(f"{title} rendering needs {module}.render_state, which this build does not have")
        return fn(state_dict, render_mode)

    render_state.__doc__ = f"`{module}.render_state(state_dict, mode)`, when the rendering module is there."
    return render_state


class ActionNames:
    """The canonical action names of a game's `_tables` (its module of the extension)."""

    _tables: ClassVar[Any]

    @classmethod
    def action_to_str(cls, action: int) -> str:
        """The canonical name of an action index (`ACTION_NAMES[action]`)."""
        return cls._tables.action_to_str(action)

    @classmethod
    def action_from_str(cls, name: str) -> int:
        """The index of a canonical action name (`maquis.MaquisError` if there is none)."""
        return cls._tables.action_from_str(name)


def declared_shaping(keywords: dict[str, Any], terms: Mapping[str, float]) -> str | None:
    """The `shaping` keyword taken out of a game's declared `keywords` (if it declares one) as the
    JSON its engine reads (None: no shaping); ValueError saying what is wrong."""
    if "shaping" not in keywords:
        return None
    return shaping_json(keywords.pop("shaping"), terms)


class GameEnv(ActionNames, gym.Env[np.ndarray, np.int64]):
    """One game for one learner, run by the game's Rust env `self._core`.

    Subclasses set `_tables` (the game's module of the extension: `Env`, `NUM_ACTIONS`,
    `action_to_str`, `action_from_str`), `metadata`, `_observation_space(dtype)` and
    `_render_state(state_dict, mode)`; their constructor checks its keywords, builds the core and
    calls `_setup`.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    # Class defaults, so that pickles made before these keywords existed load unchanged.
    observation_dtype = "float32"
    # Potential-based shaping computed by the engine, as its JSON; None: outcome rewards only.
    _shaping: str | None = None
    #: The game's shaping potential terms and their default weights (`maquis.common.shaping`),
    #: read when the game declares a `shaping` keyword.
    _potential_terms: ClassVar[Mapping[str, float]] = {}

    @staticmethod
    def _observation_space(dtype: str) -> spaces.Box:
        """The game's observation Box of `dtype` (subclasses with a uint8 form override it)."""
        raise NotImplementedError

    if TYPE_CHECKING:  # a type checker cannot see the generated `__init__`: accept its keywords
        def __init__(self, *args: Any, **kwargs: Any) -> None: ...

    def __init_subclass__(cls, keywords: Sequence[Keyword] | None = None, **kwargs: Any) -> None:
        # `class XEnv(GameEnv, keywords=GAME.keywords)`: its `__init__` is made from the game's
        # declaration (maquis.common.keywords) and calls `_construct`.
        super().__init_subclass__(**kwargs)
        if keywords is not None:
            cls.__init__ = declared_init(cls.__qualname__, keywords)  # type: ignore[method-assign]

    def _construct(self, *, render_mode: Any, observation_dtype: Any, **keywords: Any) -> None:
        """The constructor behind the declared `__init__`: the shared keywords checked, the game's
        own (`_own_keywords`), its engine built from `_engine_kwargs(**keywords)`, then `_started`."""
        observation_dtype = check_observation_dtype(observation_dtype)
        shaping = declared_shaping(keywords, self._potential_terms)
        self._own_keywords(keywords)
        self._check_render_mode(render_mode)
        engine = self._engine_kwargs(**keywords)
        self._setup(self._tables.Env(**engine), render_mode, observation_dtype)
        if shaping is not None:
            self._core.set_shaping(shaping)
            self._shaping = shaping
        self._started(keywords, engine)

    def potential(self) -> float | None:
        """The shaping potential phi of the current state (0 once the episode is over), or None
        without `shaping` (see `maquis.common.shaping`)."""
        return self._core.potential()

    def _own_keywords(self, keywords: dict[str, Any]) -> None:
        """Checks and keeps the keywords only this game's Python layer reads (before the others)."""

    def _engine_kwargs(self, **keywords: Any) -> dict[str, Any]:
        """The keywords of the game's `_core` constructors from its declared ones (checked)."""
        raise NotImplementedError

    def _started(self, keywords: dict[str, Any], engine: dict[str, Any]) -> None:
        """What the game sets up once its engine is bound."""

    def _check_render_mode(self, render_mode: Any) -> Any:
        return check_render_mode(render_mode, self.metadata["render_modes"])

    def _setup(self, core: Any, render_mode: str | None, observation_dtype: str = "float32") -> None:
        """Binds the constructed core and builds the spaces (the keywords are checked)."""
        self._core = core
        if observation_dtype != "float32":  # every engine's default
            core.observation_dtype = observation_dtype
        self.observation_dtype = observation_dtype
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self._tables.NUM_ACTIONS)
        self.observation_space = self._observation_space(observation_dtype)
        self._streams_seeded = False

    # -- Gymnasium API -----------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        seed = check_seed(seed)
        obs, mask = self._reset_core(seed, options_json(options))
        return obs, {"action_mask": mask}

    def _reset_core(self, seed: int | None, options: str | None) -> Any:
        """Reseeds `np_random` (with a seed, or on the first reset) and resets the core from the
        stream seed drawn from it; a refused reset changes nothing. Returns the core's reset."""
        before = self._np_random, self._np_random_seed
        super().reset(seed=seed)
        stream = stream_seed(self.np_random) if seed is not None or not self._streams_seeded else None
        try:
            out = self._core.reset(stream, options)
        except BaseException:
            self._np_random, self._np_random_seed = before
            raise
        self._streams_seeded = True
        return out

    def step(self, action: int | np.integer) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, mask, reward, terminated, truncated, outcome, illegal = self._core.step(action)
        info: dict[str, Any] = {"action_mask": mask}
        if outcome is not None:
            info["outcome"] = outcome
        if illegal:
            info["illegal_action"] = True
        if self._shaping is not None:
            info["shaping"] = self._core.last_shaping
        return obs, reward, terminated, truncated, info

    def render(self) -> Any:  # type: ignore[override]
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        return self._render_state(self._core.state_dict(), self.render_mode)

    def _render_state(self, state_dict: dict[str, Any], mode: str) -> Any:
        """The picture of a `state_dict()` in render mode `mode` (a mode of `metadata`)."""
        raise NotImplementedError

    # -- Masks -------------------------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal actions now, np.bool_ (NUM_ACTIONS,) (sb3-contrib's MaskablePPO convention)."""
        return self._core.action_masks()

    def legal_actions(self) -> list[int]:
        """The legal action indices now, in increasing order (empty once the episode is over)."""
        return self._core.legal_actions()

    def sample_action(self) -> int:
        """A uniformly random legal action, drawn in Rust from this environment's seeded stream."""
        return self._core.sample_action()

    # -- State -------------------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """True once the episode has ended (and before the first reset)."""
        return self._core.done

    def state_dict(self) -> dict[str, Any]:
        """The full state as plain Python data (the game's docs/api/<game>.md), hidden information included."""
        return self._core.state_dict()

    def save_state(self) -> str:
        """The game as versioned JSON; `load_state` restores it exactly (streams included)."""
        return self._core.save_state()

    def load_state(self, state: str) -> None:
        """Continue from a `save_state()` string. The episode is over iff that game is.
        Malformed or inconsistent input raises `maquis.MaquisError` and changes nothing."""
        if not isinstance(state, str):
            raise TypeError(f"load_state expects the str of save_state(), got {type(state).__name__}")
        self._core.load_state(state)

    def clone(self) -> Any:
        """An independent copy: same game, streams and `np_random`; stepping one leaves the other."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict) -> Any:
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))  # _core copies itself in Rust
        return new

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_core"] = self._core.__getstate__()  # versioned JSON: configuration, game, streams
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        core = self._tables.Env()
        core.__setstate__(state["_core"])
        if state.get("observation_dtype", "float32") != "float32":
            core.observation_dtype = state["observation_dtype"]
        self.__dict__.update(state)
        self._core = core

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._core!r}>"


class OpponentGameEnv(GameEnv):
    """A two-player game for one learner: the opponent's decisions, chance and single-option
    decisions run inside `reset` and `step`. A bundled opponent plays in Rust; an object with
    `act(obs, mask) -> int` plays from here, on the opponent side's observation and mask.

    Subclasses add `_result_info(info)` (the end-of-game extras of the infos). The single env's
    reset options are the game's scenario options (`_scenario_options`) plus `side` and
    `opponent`, for this episode only.
    """

    #: The reset options the engine reads (besides `side` and `opponent`).
    _scenario_options: ClassVar[tuple[str, ...]] = ()
    #: The engine's id of an `opponent` reset option (the game's levels; `opponent_id` over the
    #: bundled ones by default).
    _opponent_id = staticmethod(opponent_id)

    def _started(self, keywords: dict[str, Any], engine: dict[str, Any]) -> None:
        opponent = keywords["opponent"]
        if engine["opponent"] == "external":
            self._check_shaping_opponent()
            opponent = self._outside_opponent(opponent)
        self._setup_opponent(opponent, engine["opponent"])

    def _check_shaping_opponent(self) -> None:
        # The engine shapes the learner's own step; an object opponent's decisions come after it,
        # and the potential would no longer telescope over the episode.
        if self._shaping is not None:
            raise ValueError("shaping needs a bundled opponent (an id): with an object opponent its decisions "
                             "fall outside the shaped steps")

    def _outside_opponent(self, opponent: Any) -> Any:
        """The object that plays an opponent given as an object (the object itself by default)."""
        return opponent

    def _setup_opponent(self, opponent: Any, oid: str) -> None:
        self._opponent = None if oid != "external" else opponent  # the constructor's object
        self._episode_opponent = None  # the object playing this episode, if any

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        seed = check_seed(seed)
        options = check_options(options)
        keys = self._scenario_options + ("side", "opponent")
        unknown = sorted(str(k) for k in options if k not in keys)
        if unknown:
            raise ValueError(f"unknown reset options {unknown}: the keys are {list(keys)}")
        episode_opponent = self._opponent
        if "side" in options:
            options["side"] = check_side(options.pop("side"), self._tables.SIDES)
        if "opponent" in options:
            o = options.pop("opponent")
            options["opponent"] = self._opponent_id(o)
            episode_opponent = None if isinstance(o, str) else o
            if episode_opponent is not None:
                self._check_shaping_opponent()
        self._reset_core(seed, options_json(options) if options else None)
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
        info = self._info(outcome if terminated else None, illegal)
        if self._shaping is not None:
            info["shaping"] = self._core.last_shaping
        return obs, float(reward), bool(terminated), False, info

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
            self._result_info(info)
        if illegal:
            info["illegal_action"] = True
        return info

    def _result_info(self, info: dict[str, Any]) -> None:
        """Adds the game's end-of-game entries to `info` (e.g. the final score)."""

    @property
    def side(self) -> str:
        """The learner's side in the current episode."""
        return self._core.side
