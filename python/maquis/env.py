"""`MaquisEnv`: one game of Maquis as a `gymnasium.Env`. The rules, rewards and seeding run in Rust
(`maquis._core.Env`); this module converts types, builds the spaces and the info dicts."""

from __future__ import annotations

import copy
import json
import numbers
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import _core
from ._core import NUM_ACTIONS, OBS_SIZE
from .observation import check_observation_dtype, observation_space
from .shaping import shaping_json

#: Every feature of the observation lies in [0, 1]: one-hot slices and flags, counts divided by
#: their maximum (4 tokens of a resource, 5 workers, 5 patrols, 7 boxes, 10 cards).
OBS_LOW, OBS_HIGH = 0.0, 1.0


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


def core_kwargs(
    difficulty: str,
    mission_pool: str,
    missions: Sequence[str] | None,
    deal: str,
    reward: Mapping[str, float] | None,
    illegal_action: str,
) -> dict[str, Any]:
    """The constructor keywords of `_core.Env` / `_core.VecEngine` (types checked there)."""
    if isinstance(missions, np.ndarray):
        missions = missions.tolist()
    if missions is not None:
        if isinstance(missions, (str, bytes)) or not isinstance(missions, Sequence):
            raise TypeError(f"missions must be a sequence of two mission ids, got {type(missions).__name__}")
        missions = list(missions)
    if reward is not None:
        if not isinstance(reward, Mapping):
            raise TypeError(f"reward must be a mapping outcome -> float, got {type(reward).__name__}")
        reward = dict(reward)
        for outcome, value in reward.items():
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
                raise TypeError(f"reward[{outcome!r}] must be a real number, got {type(value).__name__} {value!r}")
    return dict(
        difficulty=difficulty,
        mission_pool=mission_pool,
        deal=deal,
        missions=missions,
        reward=reward,
        illegal_action=illegal_action,
    )


def render_state(state_dict: dict, render_mode: str | None) -> str | np.ndarray | None:
    if render_mode is None:
        gym.logger.warn(
            "You are calling render() without a render mode: "
            'create the environment with render_mode="ansi" or "rgb_array".'
        )
        return None
    from . import render  # imported on first use: not needed to play

    if render_mode == "ansi":
        return render.render_ansi(state_dict)
    return render.render_rgb(state_dict)


class MaquisEnv(gym.Env[np.ndarray, np.int64]):
    """Maquis: the solitaire worker-placement game of the French Resistance (Jake Staines), second
    edition, with the difficulty levels and mission pools of RULES.md.

    ## Description
    Each day the player places their workers on the town's locations while patrols (Milice and
    soldiers, drawn from a hidden patrol deck) take the others; then activates the workers one by
    one, gaining resources, building spare rooms and working on two missions, and each worker
    must find a route home without crossing a patrol or be arrested. Complete both missions before
    the day track runs out, without morale falling to 0. A step is one decision of the player;
    patrol placement, route checks and the end of the day run inside it.

    ## Action Space
    `Discrete(217)`: one flat space for every ruleset. Each index has a canonical name,
    `maquis.ACTION_NAMES[i]` (`env.action_to_str(i)`, `env.action_from_str(name)`):
    `place:<loc>` and `place:<loc>:fake_id` (placement), `act:<loc>:<option>` and `skip:<loc>`
    (activation), `shoot:<loc>` (F8), `accept` (after a cut-off activation, do not shoot). Only
    a few are legal at a time: `info["action_mask"]` (np.int8), `env.action_masks()` (np.bool_,
    the sb3-contrib convention) and `env.legal_actions()` (list of indices) say which.

    ## Observation Space
    `Box(0, 1, ({OBS_SIZE},), float32)` (`maquis.OBS_SIZE`): everything the player may see and
    nothing else (never the order of the patrol deck; its top card only while an Infiltration
    mole is in place), as one-hot slices, flags and counts divided by their maximum.
    `maquis.OBSERVATION_LAYOUT` names every slice as `(name, offset, length)`: day, phase,
    difficulty, mission pool, morale, soldiers, hand, supply, workers, patrols, the pawns and
    markers on the 19 locations, airdrops, tiles, closed roads, both missions' ids and progress,
    the patrol discard, the deck size, the peeked card, and the pending activation (its worker,
    tokens and other rewards).

    ## Rewards
    0 on every step but the last, which gives the reward of the outcome: by default win 1,
    major_win 1, draw 0, loss -1 (`reward=` changes some or all of them). An illegal action
    ends the episode with the loss reward (with `illegal_action="terminate"`).

    With `shaping` on, every step's reward also holds the potential-based shaping term
    `gamma * phi(s') - phi(s)` (phi = 0 once the episode is over; see `maquis.shaping`), also
    given alone as `info["shaping"]`. Over an episode these terms sum (discounted by gamma) to
    `-phi(s_0)`, so a learner discounting by the same gamma keeps the same optimal policy.

    ## Episode End
    Termination: the game ends by the rules (RULES.md E1-E3: morale 0, both missions complete,
    no worker left, or the day track runs out), or on an illegal action with
    `illegal_action="terminate"`. There is no truncation: every game ends within 30 days
    (`truncated` is always False). Stepping a finished episode raises `maquis.MaquisError`
    ("the game is over; call reset() before step()"): call `reset()`.

    ## Information
    `reset` and `step` return `info["action_mask"]` (np.int8 (217,), all zeros once the episode
    is over). The last step also gives `info["outcome"]` ("win", "major_win", "draw" or
    "loss") and, when it was illegal, `info["illegal_action"] = True`.

    ## Arguments
    ```python
    import gymnasium as gym
    env = gym.make("maquis/Maquis-v0", difficulty="normal", mission_pool="second_edition",
                   missions=None, deal="uniform", reward=None, illegal_action="terminate",
                   render_mode=None, observation_dtype="float32", shaping=None)
    ```
    - `difficulty`: "very_easy", "easy", "normal", "tricky", "hard" or "very_hard" (D1).
    - `mission_pool`: "second_edition", "first_edition" or "pnp_2013" (D2).
    - `missions`: two mission ids (the first on mission_a), or None to deal them (D3).
    - `deal`: "uniform", "grouped_2013" or "grouped_2019" (D3).
    - `reward`: a mapping outcome -> float; outcomes left out keep their default.
    - `illegal_action`: "terminate" (see Rewards), or "raise": `maquis.IllegalActionError` (a
      `ValueError`) naming the action, the phase and why, with the state unchanged.
    - `render_mode`: None, "ansi" (a text board) or "rgb_array" (an (H, W, 3) uint8 image).
    - `observation_dtype`: "float32" (the default) or "uint8": each feature's count, exact, in a
      quarter of the bytes, `Box(0, maquis.OBS_HIGH_UINT8, ({OBS_SIZE},), uint8)`;
      `maquis.observation_float32(obs)` gives the float32 observation back bit for bit (see
      `maquis.OBSERVATION_DIVISOR`).
    - `shaping`: None / False (default: outcome rewards only), True (phi = 1.0 * missions +
      0.3 * hand + 0.2 * morale + 0.2 * workers, gamma 0.99), or
      `{"gamma": float in (0, 1], "weights": {term: float}}` (both optional; terms left out keep
      their default). The terms (`maquis.shaping.POTENTIAL_TERMS`): `missions` (per mission,
      boxes done / boxes, +1 once complete), `hand` (tokens in hand / 4), `morale` (morale / 7),
      `workers` (recruited and not arrested / the level's workers). Set gamma to the learner's
      discount: the telescoping that keeps the optimal policy depends on it. Bad values raise
      ValueError.

    `reset(seed=None, options=None)`: `options` apply to this episode only and may hold
    `difficulty`, `missions`, `patrol_deck` (a permutation of 0-9, the draw order) and `start`
    {`resources`: {id: n}, `morale`, `soldiers`, `day`, `workers`: {`available`, `recruitable`}}.
    Unknown keys or ids raise `maquis.MaquisError` (a `ValueError`).

    Seeding: `reset(seed=s)` seeds `self.np_random` (Gymnasium) and draws from it the stream seed
    of the environment's two Rust streams, one giving each episode's game seed and one giving
    `sample_action()`; a reset without a seed starts the next episode of the same streams (the
    first reset without any seed draws the stream seed from a fresh `np_random`). Env `i` of
    `MaquisVectorEnv(...).reset(seed=s)` plays exactly the episodes of a `MaquisEnv` reset with
    `seed=s + i` and then without a seed after each episode, as `gymnasium.vector.SyncVectorEnv`
    does.

    Beyond Gymnasium: `state_dict()`, `save_state()` / `load_state()` (exact, versioned JSON),
    `clone()`, pickling, `sample_action()`.

    ## Version History
    - v0: initial version (engine 0.1: RULES.md second edition, 217 actions, {OBS_SIZE} features).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
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
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        observation_dtype = check_observation_dtype(observation_dtype)
        self._core = _core.Env(**core_kwargs(difficulty, mission_pool, missions, deal, reward, illegal_action))
        self._core.observation_dtype = self.observation_dtype = observation_dtype
        # Potential-based shaping, computed in Rust (maquis.shaping); None: outcome rewards only.
        self._shaping = shaping_json(shaping)
        if self._shaping is not None:
            self._core.set_shaping(self._shaping)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = observation_space(observation_dtype)
        self._streams_seeded = False

    # -- Gymnasium API -----------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        seed = check_seed(seed)
        opts = options_json(options)
        before = self._np_random, self._np_random_seed
        super().reset(seed=seed)
        stream = stream_seed(self.np_random) if seed is not None or not self._streams_seeded else None
        try:
            obs, mask = self._core.reset(stream, opts)
        except BaseException:
            self._np_random, self._np_random_seed = before  # a refused reset changes nothing
            raise
        self._streams_seeded = True
        return obs, {"action_mask": mask}

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

    def render(self) -> str | np.ndarray | None:  # type: ignore[override]
        return render_state(self._core.state_dict(), self.render_mode)

    # -- Masks and action names --------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal actions now, np.bool_ (217,) (sb3-contrib's MaskablePPO convention)."""
        return self._core.action_masks()

    def legal_actions(self) -> list[int]:
        """The legal action indices now, in increasing order (empty once the episode is over)."""
        return self._core.legal_actions()

    def sample_action(self) -> int:
        """A uniformly random legal action, drawn in Rust from this environment's seeded stream."""
        return self._core.sample_action()

    @staticmethod
    def action_to_str(action: int) -> str:
        """The canonical name of an action index, e.g. 7 -> "place:radio_a"."""
        return _core.action_to_str(action)

    @staticmethod
    def action_from_str(name: str) -> int:
        """The index of a canonical action name (`maquis.MaquisError` if there is none)."""
        return _core.action_from_str(name)

    # -- State -------------------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """True once the episode has ended (and before the first reset)."""
        return self._core.done

    def state_dict(self) -> dict[str, Any]:
        """The full state as plain Python data (API.md), including the hidden deck order."""
        return self._core.state_dict()

    def potential(self) -> float | None:
        """The shaping potential phi of the current state (0 once the episode is over), or None
        without `shaping` (see `maquis.shaping`)."""
        return self._core.potential()

    def save_state(self) -> str:
        """The game as versioned JSON; `load_state` restores it exactly (deck and RNG included)."""
        return self._core.save_state()

    def load_state(self, state: str) -> None:
        """Continue from a `save_state()` string. The episode is over iff that game is.
        Malformed or inconsistent input raises `maquis.MaquisError` and changes nothing."""
        if not isinstance(state, str):
            raise TypeError(f"load_state expects the str of save_state(), got {type(state).__name__}")
        self._core.load_state(state)

    def determinize(self, seed: int | None = None) -> MaquisEnv:
        """A copy whose hidden information is resampled: the order of the cards still in the patrol
        deck (consistent with the open discard and, under Infiltration, the peeked top card) and
        the game's RNG. Same observation and legal actions; for planning (determinized search)."""
        seed = check_seed(seed)
        if seed is not None and seed >= 2**64:
            raise ValueError(f"seed must be below 2**64, got {seed}")
        new = self.clone()
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63))
        new._core.determinize(seed)
        return new

    def clone(self) -> MaquisEnv:
        """An independent copy: same game, streams and `np_random`; stepping one leaves the other."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict) -> MaquisEnv:
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))  # _core copies itself in Rust
        return new

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_core"] = self._core.__getstate__()  # versioned JSON: configuration, game, streams
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        core = _core.Env()
        core.__setstate__(state["_core"])
        core.observation_dtype = state.get("observation_dtype", "float32")
        self._shaping = None  # pickles made before the shaping keyword
        self.__dict__.update(state)
        self._core = core

    def __repr__(self) -> str:
        return f"<MaquisEnv {self._core!r}>"


MaquisEnv.__doc__ = MaquisEnv.__doc__.replace("{OBS_SIZE}", str(OBS_SIZE))
