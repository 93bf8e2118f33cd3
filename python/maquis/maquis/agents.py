"""Bundled agents: yardsticks for trained policies.

Every agent acts on what a policy sees, `act(obs, mask) -> int`, and has the batched form
`act_batch(obs, masks) -> np.ndarray` ((n, OBS_SIZE) float32 observations, (n, NUM_ACTIONS)
masks). None of them sees the hidden patrol-deck order:

- `RandomAgent`: uniform over the legal actions (numpy).
- `HeuristicAgent`: a scripted player (Rust): works toward its two missions, keeps routes home
  open, blocks patrols, avoids wasted workers.
- `SearchAgent`: determinized Monte-Carlo tree search (Rust) with a simulation budget: it samples
  deck orders consistent with what the player has seen (the discard, the Infiltration peek).
- `NetworkAgent` ("network"): the learned network alone (Rust, no torch), greedy over the legal
  actions; it reads the observation only (a network with heuristic inputs also ranks the
  heuristic's moves on the state rebuilt from it).
- `NetworkSearchAgent` ("network_search"): the determinized search guided by the network (its
  policy as the prior of a Gumbel top-k with sequential halving, its value and/or heuristic
  rollouts at the leaves, the heuristic's best moves beside the network's: `DEFAULT_NETWORK_SEARCH`).

The network agents load the shipped network `maquis.maquis.network.DEFAULT_NETWORK` unless given another
(`network=` a shipped name, a `.safetensors` path or a `maquis._core.maquis.Network`).

The Rust agents rebuild a game from the observation alone (the engine's `state_from_observation`:
every visible detail, the deck drawn at random), so what they do depends only on `obs`.
`load_policy(path)` loads a saved policy file (the `maquis-mlp-v1` format of `maquis.maquis.policy`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from maquis._core import maquis as _core
from maquis.maquis.observation import observation_float32
from maquis.maquis.policy import load_policy as _load_mlp

AGENT_NAMES = ("random", "heuristic", "search", "network", "network_search")


def _check(obs: np.ndarray, mask: np.ndarray, batched: bool) -> tuple[np.ndarray, np.ndarray]:
    from maquis import NUM_ACTIONS, OBS_SIZE

    # uint8 observations (`observation_dtype="uint8"`) converted exactly: agents see the same values.
    obs = np.ascontiguousarray(observation_float32(obs), dtype=np.float32)
    mask = np.ascontiguousarray(mask).astype(bool, copy=False)
    want_obs = (obs.shape[0], OBS_SIZE) if batched and obs.ndim == 2 else (OBS_SIZE,)
    if obs.shape != want_obs:
        raise ValueError(f"observations must have shape {'(n, ' if batched else '('}{OBS_SIZE},), got {obs.shape}")
    want_mask = (obs.shape[0], NUM_ACTIONS) if batched else (NUM_ACTIONS,)
    if mask.shape != want_mask:
        raise ValueError(f"mask must have shape {want_mask}, got {mask.shape}")
    if not (mask.any(axis=-1)).all():
        raise ValueError("a mask has no legal action (the episode is over: reset the environment)")
    return obs, mask


def _int_setting(name: str, value: Any, low: int) -> int:
    """An agent's integer setting, checked here so that the error names it."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value < 2**32:
        raise ValueError(f"{name} must be an int in [{low}, 2**32), got {value!r}")
    return int(value)


class RandomAgent:
    """Uniformly random legal actions (`seed` makes it reproducible)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        _, mask = _check(obs, mask, batched=False)
        return int(self.rng.choice(np.flatnonzero(mask)))

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        _, masks = _check(obs, masks, batched=True)
        # One uniform draw per row: the k-th legal action with k < count.
        counts = masks.sum(axis=1)
        k = (self.rng.random(len(masks)) * counts).astype(np.int64)
        cum = masks.cumsum(axis=1)
        return (cum <= k[:, None]).sum(axis=1).astype(np.int64)

    def act_vector_env(self, vec: Any) -> np.ndarray:
        """Random legal actions drawn in Rust from each environment's own stream (fastest)."""
        return vec.sample_actions()


class _RustAgent:
    """An agent implemented in `maquis._core` (acting on observations, batched over threads)."""

    name = ""

    def __init__(self, core: Any) -> None:
        self._core = core

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        obs, mask = _check(obs, mask, batched=False)
        return int(self._core.act_batch(obs[None], mask[None])[0])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        obs, masks = _check(obs, masks, batched=True)
        return self._core.act_batch(obs, masks)

    def __repr__(self) -> str:
        return repr(self._core)


class HeuristicAgent(_RustAgent):
    """The scripted player (Rust). Deterministic for a given `seed` (ties are broken by it)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(_core.HeuristicAgent(int(seed)))

    def ranked(self, obs: np.ndarray, masks: np.ndarray, k: int = 4) -> tuple[np.ndarray, np.ndarray]:
        """The heuristic's `k` best legal actions per observation, best first, and their scores.

        The first column is `act_batch`'s choice. Scores compare actions within one decision only
        (their scale differs between phases). Rows with fewer than `k` legal actions are padded
        with action -1 and score NaN. What the search agents take as their candidates, and a
        baseline or an input feature for a residual policy of your own.

        Returns:
            (int64 (n, k) actions, float32 (n, k) scores).
        """
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ValueError(f"k must be a positive int, got {k!r}")
        obs, masks = _check(obs, masks, batched=True)
        return self._core.ranked_batch(obs, masks, int(k))


class SearchAgent(_RustAgent):
    """Determinized MCTS (Rust) with `simulations` playouts per decision, seeded by `seed`."""

    name = "search"

    def __init__(self, simulations: int = 200, seed: int = 0) -> None:
        self.simulations = _int_setting("simulations", simulations, 1)
        super().__init__(_core.SearchAgent(self.simulations, int(seed)))


class NetworkAgent(_RustAgent):
    """The learned network alone: the legal action with the highest logit (Rust, no torch).

    `network`: a shipped network's name, a `.safetensors` path or a `maquis._core.maquis.Network`.
    Deterministic; `seed` is accepted for a uniform interface and unused.
    """

    name = "network"

    def __init__(self, network: Any = None, seed: int = 0) -> None:
        from maquis.maquis.network import DEFAULT_NETWORK, load_network

        self.network = load_network(DEFAULT_NETWORK if network is None else network)
        super().__init__(_core.NetworkAgent(self.network))


class NetworkSearchAgent(_RustAgent):
    """Network-guided determinized search (Rust): `simulations` leaf evaluations per decision over
    the network's top `candidates` actions (Gumbel top-k, sequential halving), each applying the
    candidate on a sampled deck order, playing `depth` greedy network moves and reading the
    network's value (mixed with a heuristic rollout by `rollout_mix`). `heuristic_candidates` adds
    the heuristic's best moves to the candidates (searched first, so ties go to them), and
    `prior_weight` scales the network's logits beside the values when candidates are ranked (0: by
    value alone). `progress_bonus` adds that much per unit of progress on the missions left
    incomplete to a finished rollout's value (wins 1, draws ½, losses 0), so that a search whose
    rollouts rarely win still prefers the lines that get further. `gumbel_scale` > 0 adds Gumbel
    noise to the prior (self-play exploration).
    `search_batch(obs, masks)` returns the root statistics (improved policy, value) used as
    training targets. Settings left out take `DEFAULT_NETWORK_SEARCH`.
    """

    name = "network_search"

    def __init__(self, network: Any = None, simulations: int | None = None, seed: int = 0, *,
                 candidates: int | None = None, depth: int | None = None, rollout_mix: float | None = None,
                 gumbel_scale: float = 0.0, heuristic_candidates: int | None = None,
                 prior_weight: float | None = None, progress_bonus: float | None = None) -> None:
        from maquis.maquis.network import DEFAULT_NETWORK, load_network

        given = {"simulations": simulations, "candidates": candidates, "depth": depth, "rollout_mix": rollout_mix,
                 "heuristic_candidates": heuristic_candidates, "prior_weight": prior_weight,
                 "progress_bonus": progress_bonus}
        o = {k: DEFAULT_NETWORK_SEARCH[k] if v is None else v for k, v in given.items()}
        ints = {"simulations": 1, "candidates": 1, "depth": 0, "heuristic_candidates": 0}
        o.update({k: _int_setting(k, o[k], low) for k, low in ints.items()})
        self.network = load_network(DEFAULT_NETWORK if network is None else network)
        super().__init__(_core.NetworkSearchAgent(
            self.network, o["simulations"], int(seed), candidates=o["candidates"], depth=o["depth"],
            rollout_mix=float(o["rollout_mix"]), gumbel_scale=float(gumbel_scale),
            heuristic_candidates=o["heuristic_candidates"], prior_weight=float(o["prior_weight"]),
            progress_bonus=float(o["progress_bonus"])))
        self.simulations = o["simulations"]

    def search_batch(self, obs: np.ndarray, masks: np.ndarray) -> dict[str, np.ndarray]:
        obs, masks = _check(obs, masks, batched=True)
        return self._core.search_batch(obs, masks)


# The settings of `network_search`: the strongest of those measured with the shipped network
# (docs/training.md), the heuristic's four best moves and the network's best one compared by
# heuristic rollouts, the network's logits (weight 0.2) deciding near-ties, a small bonus for the
# progress of a rollout's unfinished missions, within 50 ms a decision on one core. They live in
# Rust (`NETWORK_SEARCH_DEFAULTS`, src/maquis/agents/guided.rs) so that its harnesses play the same.
DEFAULT_NETWORK_SEARCH: dict[str, Any] = dict(_core.NETWORK_SEARCH_DEFAULTS)


def make_agent(name: str, seed: int = 0, **kwargs: Any) -> Any:
    """A bundled agent by name: "random", "heuristic", "search" (kwargs: `simulations`), "network"
    (kwargs: `network`) or "network_search" (kwargs: `network`, `simulations`, `candidates`,
    `depth`, `rollout_mix`, `gumbel_scale`, `heuristic_candidates`, `prior_weight`,
    `progress_bonus`)."""
    if name == "random":
        return RandomAgent(seed, **kwargs)
    if name == "heuristic":
        return HeuristicAgent(seed, **kwargs)
    if name == "search":
        return SearchAgent(seed=seed, **kwargs)
    if name == "network":
        return NetworkAgent(seed=seed, **kwargs)
    if name == "network_search":
        return NetworkSearchAgent(seed=seed, **kwargs)
    raise ValueError(f"unknown agent {name!r}: expected one of {', '.join(AGENT_NAMES)}")


def load_policy(path: str, **kwargs: Any) -> Any:
    """A policy saved to a file (`.npz`, format `maquis-mlp-v1`: see `maquis.maquis.policy`)."""
    return _load_mlp(path, **kwargs)
