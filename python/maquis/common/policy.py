"""Saved policies: the `maquis-mlp-v1` format (a numpy MLP), loadable without torch.

A `.npz` archive holding:

    format        str  "maquis-mlp-v1"
    activation    str  "tanh" | "relu"  (after every layer but the last)
    num_layers    int  L
    w0, b0 ... w{L-1}, b{L-1}   float32, w_i of shape (in, out): x <- act(x @ w_i + b_i)
    obs_size      int  observation length it was trained on (the game's, e.g. maquis.OBS_SIZE)
    num_actions   int  N (the game's, e.g. maquis.NUM_ACTIONS)
    deterministic bool  True: play the masked argmax of the logits
    meta          str  JSON: difficulty, steps trained, seed, creation time, library versions

`examples/train_ppo.py` writes it; `maquis eval --policy FILE` and `maquis.evaluate(FILE)` read it.
The format is every game's; each game's `load_policy` checks a file against its own spaces and
converts its uint8 observations.
"""

from __future__ import annotations

import json
import zipfile

import numpy as np

POLICY_FORMAT = "maquis-mlp-v1"


def float32_rows(obs):
    """Observations as float32 (float32 rows as they are, not copied). A game whose uint8
    observations need dividing passes its own conversion (`to_float32=`); without one, uint8 rows
    are refused rather than read as counts."""
    obs = np.asarray(obs)
    if obs.dtype == np.float32:
        return obs
    if obs.dtype == np.uint8:
        raise ValueError("uint8 observations: load the policy with the game's observation_float32 (to_float32=)")
    return obs.astype(np.float32)


class NumpyMLPPolicy:
    """A masked MLP policy over numpy arrays: `policy(obs, mask) -> action(s)`.

    Accepts one observation (D,) with its mask (N,) and returns an int, or a batch (B, D), (B, N)
    and returns np.int64 (B,). `batched = True` tells `maquis.evaluate` it may pass batches.
    """

    batched = True

    def __init__(self, weights, biases, activation="tanh", deterministic=True, seed=0, meta=None, to_float32=None):
        self.weights = [np.asarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.asarray(b, dtype=np.float32) for b in biases]
        if activation not in ("tanh", "relu"):
            raise ValueError(f"unknown activation {activation!r}")
        self.activation = activation
        self.deterministic = bool(deterministic)
        self.rng = np.random.default_rng(seed)
        self.meta = meta or {}
        self.to_float32 = to_float32 or float32_rows
        self.obs_size = self.weights[0].shape[0]
        self.num_actions = self.weights[-1].shape[1]

    def logits(self, obs):
        x = self.to_float32(obs)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            x = x @ w + b
            if i < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        return x

    def __call__(self, obs, mask):
        obs = self.to_float32(obs)
        mask = np.asarray(mask).astype(bool)
        single = obs.ndim == 1
        if single:
            obs, mask = obs[None], mask[None]
        logits = self.logits(obs)
        if self.deterministic:
            mask = mask | ~mask.any(axis=1, keepdims=True)  # a finished game (no legal action): any
            actions = np.argmax(np.where(mask, logits, -np.inf), axis=1)
        else:
            actions = sample_rows(masked_probabilities(logits, mask), self.rng)
        actions = actions.astype(np.int64)
        return int(actions[0]) if single else actions

    # the agent interface of the bundled agents (act / act_batch)
    def act(self, obs, mask):
        return self(obs, mask)

    def act_batch(self, obs, masks):
        return self(obs, masks)


def masked_probabilities(logits, mask):
    """The softmax of each row of `logits` over its legal actions (`mask`; a row with none legal,
    a finished game: over all)."""
    mask = mask | ~mask.any(axis=1, keepdims=True)
    z = np.where(mask, logits, -np.inf)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return p


def sample_rows(p, rng):
    """An action per row of probabilities `p`, from one uniform draw of `rng` a row (inverse CDF;
    rounding cannot pick past the last action)."""
    u = rng.random((len(p), 1))
    return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)


def save_policy(path, weights, biases, activation, meta, deterministic=True):
    arrays = {f"w{i}": np.asarray(w, np.float32) for i, w in enumerate(weights)}
    arrays.update({f"b{i}": np.asarray(b, np.float32) for i, b in enumerate(biases)})
    np.savez(
        path,
        format=np.array(POLICY_FORMAT),
        activation=np.array(activation),
        num_layers=np.array(len(weights)),
        obs_size=np.array(weights[0].shape[0]),
        num_actions=np.array(weights[-1].shape[1]),
        deterministic=np.array(bool(deterministic)),
        meta=np.array(json.dumps(meta)),
        **arrays,
    )


def load_policy(path, deterministic=None, seed=0, spaces=None, to_float32=None):
    """Loads a `maquis-mlp-v1` .npz policy (numpy only); checks it fits a game's spaces:
    `spaces` = (observation size, number of actions), not checked when None. `to_float32`: the
    game's conversion of its uint8 observations (see `float32_rows`)."""
    with np.load(path, allow_pickle=False) as z:
        fmt = str(z["format"])
        if fmt != POLICY_FORMAT:
            raise ValueError(f"{path}: format {fmt!r}, expected {POLICY_FORMAT!r}")
        n = int(z["num_layers"])
        weights = [z[f"w{i}"] for i in range(n)]
        biases = [z[f"b{i}"] for i in range(n)]
        det = bool(z["deterministic"]) if deterministic is None else deterministic
        meta = json.loads(str(z["meta"])) if "meta" in z else {}
        policy = NumpyMLPPolicy(weights, biases, str(z["activation"]), det, seed, meta, to_float32)
    if spaces is not None and (policy.obs_size, policy.num_actions) != tuple(spaces):
        raise ValueError(
            f"{path}: the policy expects observations of {policy.obs_size} and {policy.num_actions} actions; "
            f"this game has {spaces[0]} and {spaces[1]}"
        )
    policy.name = str(path)
    return policy


def load_game_policy(path, deterministic, seed, spaces, to_float32=None):
    """`load_policy` for a game's spaces, any failure a ValueError naming the file (missing, not a
    policy, made for other spaces)."""
    try:
        return load_policy(path, deterministic, seed, spaces, to_float32)
    except (ValueError, OSError, KeyError, EOFError, zipfile.BadZipFile) as e:
        if isinstance(e, ValueError) and str(path) in str(e):
            raise  # already names the file (a wrong format or wrong spaces)
        raise ValueError(f"{path}: not a maquis-mlp-v1 policy file ({type(e).__name__}: {e})") from e
