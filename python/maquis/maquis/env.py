"""`MaquisEnv`: one game of Maquis as a `gymnasium.Env`. The rules, rewards and seeding run in Rust
(`maquis._core.maquis.Env`); this module converts the keywords and supplies the tables and rendering to
the shared single-agent layer (`maquis.common.single`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._core import maquis as _core
from .._core.maquis import OBS_SIZE
from ..common.single import GameEnv, check_reward_value, check_seed, options_json, stream_seed
from .game import GAME
from .observation import observation_space
from .shaping import POTENTIAL_TERMS

#: Every feature of the observation lies in [0, 1]: one-hot slices and flags, counts divided by
#: their maximum (4 tokens of a resource, 5 workers, 5 patrols, 7 boxes, 10 cards).
OBS_LOW, OBS_HIGH = 0.0, 1.0

__all__ = ["MaquisEnv", "check_seed", "core_kwargs", "options_json", "render_state", "stream_seed"]


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
            check_reward_value(outcome, value)
    return dict(
        difficulty=difficulty,
        mission_pool=mission_pool,
        deal=deal,
        missions=missions,
        reward=reward,
        illegal_action=illegal_action,
    )


def render_state(state_dict: dict, render_mode: str) -> str | np.ndarray:
    """A Maquis `state_dict()` as a text board ("ansi") or an (H, W, 3) uint8 image ("rgb_array")."""
    from . import render  # imported on first use: not needed to play

    if render_mode == "ansi":
        return render.render_ansi(state_dict)
    return render.render_rgb(state_dict)


class MaquisEnv(GameEnv, keywords=GAME.keywords):
    """Maquis: the solitaire worker-placement game of the French Resistance (Jake Staines), second
    edition, with the difficulty levels and mission pools of docs/rules/maquis.md.

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
    `gamma * phi(s') - phi(s)` (phi = 0 once the episode is over; see `maquis.maquis.shaping`), also
    given alone as `info["shaping"]`. Over an episode these terms sum (discounted by gamma) to
    `-phi(s_0)`, so a learner discounting by the same gamma keeps the same optimal policy.

    ## Episode End
    Termination: the game ends by the rules (docs/rules/maquis.md E1-E3: morale 0, both missions complete,
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
      their default). The terms (`maquis.maquis.shaping.POTENTIAL_TERMS`): `missions` (per mission,
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
    `seed=maquis.sub_env_seed(s, i)` and then without a seed after each episode: a hash of (s, i),
    where `gymnasium.vector.SyncVectorEnv` gives `s + i`, so that vectors seeded `s`, `s + 1`, ...
    (RLlib's env runners) share no stream.

    Beyond Gymnasium: `state_dict()`, `save_state()` / `load_state()` (exact, versioned JSON; the
    save holds the env's own streams too, so resets and `sample_action()` go on alike after a load —
    docs/reliability.md), `clone()`, pickling, `sample_action()`.

    ## Version History
    - v0: initial version (engine 0.1: docs/rules/maquis.md second edition, 217 actions, {OBS_SIZE} features).
    """

    _tables = _core
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}
    _render_state = staticmethod(render_state)
    _observation_space = staticmethod(observation_space)

    _engine_kwargs = staticmethod(core_kwargs)
    _potential_terms = POTENTIAL_TERMS

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


MaquisEnv.__doc__ = MaquisEnv.__doc__.replace("{OBS_SIZE}", str(OBS_SIZE))
