"""The learned network: `maquis-net-v1`/`-v2` weight files, the shipped networks, a numpy reference.

A weight file is one safetensors file (float32, float16 or bfloat16 tensors, widened to float32
on load; torch's `nn.Linear` convention: `weight` is `(out, in)` and `y = x @ weight.T + bias`):

    trunk.{i}.weight  (h_i, h_{i-1})   trunk.{i}.bias  (h_i,)     i = 0..L-1, ReLU after each,
                                                                   h_{-1} = OBS_SIZE
    policy.weight     (NUM_ACTIONS, h_{L-1})   policy.bias  (NUM_ACTIONS,)   logits
    value.weight      (1, h_{L-1})             value.bias   (1,)   sigmoid -> expected outcome
                                                                   value (win 1, draw 0.5, loss 0)

and `__metadata__` with `format = "maquis-net-v1"` and `observation = OBSERVATION_FINGERPRINT`
(`obs<OBS_SIZE>-a<NUM_ACTIONS>-<hash of OBSERVATION_LAYOUT>`); other keys are free (training
settings). The Rust loader (`Network.load`) refuses a file whose fingerprint differs from this
build's, naming both. Play needs no torch: the network runs in Rust (`maquis._core.maquis.Network`).

`maquis-net-v2` adds `inputs` to the metadata. `"observation+heuristic4"` networks read, after the
observation, the heuristic's ranking as HEURISTIC_PLANES planes of NUM_ACTIONS values (its 4 best
legal moves one-hot, one plane a rank, then at those moves `tanh((score_0 - score_r) /
HEURISTIC_GAP_SCALE)`; `heuristic_planes`), so `h_{-1} = OBS_SIZE + 5 * NUM_ACTIONS`, and hold
`prior.weight` (5,): plane c times `prior.weight[c]` is added to the logits. The ranking is
`HeuristicAgent(0).ranked(obs, masks, 4)`, a function of the observation alone.

`load_network(name_or_path)` loads a shipped network by name (package data in
`maquis/networks/<name>.safetensors`, see `SHIPPED_NETWORKS`) or any file by path.
"""

from __future__ import annotations

import json
import struct
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from maquis._core import maquis as _core
from maquis.common.network_file import (  # noqa: F401 - the shared format's names, re-exported
    NETWORK_FORMAT,
    NETWORK_FORMAT_V2,
    STORAGE_DTYPES,
    read_network_file,
    weights_metadata,
    write_weights,
)
from maquis.maquis.observation import observation_float32

OBSERVATION_FINGERPRINT = _core.OBSERVATION_FINGERPRINT
NETWORK_INPUTS = tuple(_core.NETWORK_INPUTS)
DEFAULT_NETWORK = "baseline"


def _file_fingerprint(path: Any) -> str | None:
    """The `observation` fingerprint in a weight file's header (None if it has none)."""
    with open(str(path), "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        return (json.loads(f.read(n)).get("__metadata__") or {}).get("observation")


def shipped_networks() -> tuple[str, ...]:
    """Names of Maquis's networks shipped as package data (the folder also holds other games'
    networks, e.g. D-Day's `dday`, told apart by their fingerprint)."""
    folder = resources.files("maquis") / "networks"
    return tuple(sorted(p.name[: -len(".safetensors")] for p in folder.iterdir()
                        if p.name.endswith(".safetensors") and _file_fingerprint(p) == OBSERVATION_FINGERPRINT))


def network_path(name: str) -> Path:
    """The file of a shipped network."""
    p = resources.files("maquis") / "networks" / f"{name}.safetensors"
    if not p.is_file():
        raise ValueError(f"no shipped network {name!r}: shipped are {', '.join(shipped_networks()) or 'none'}")
    return Path(str(p))


def load_network(network: Any = DEFAULT_NETWORK) -> Any:
    """A `maquis._core.maquis.Network` from a shipped name, a path, or a Network (returned as is)."""
    if isinstance(network, _core.Network):
        return network
    s = str(network)
    path = Path(s) if (s.endswith(".safetensors") or "/" in s or Path(s).exists()) else network_path(s)
    return _core.Network.load(str(path))


def network_metadata(inputs: str = "observation", **extra: str) -> dict[str, str]:
    """The metadata a weight file for this build must carry (plus `extra`)."""
    if inputs not in NETWORK_INPUTS:
        raise ValueError(f"inputs must be one of {', '.join(NETWORK_INPUTS)}, got {inputs!r}")
    return weights_metadata(OBSERVATION_FINGERPRINT, inputs, **extra)


def heuristic_ranks(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The compact form of the heuristic planes: the heuristic's HEURISTIC_RANKS best moves (int64
    (n, 4), -1 where fewer are legal) and their squashed score gaps (float32 (n, 4)), computed in
    Rust (`HeuristicAgent(0).ranked`) over all threads."""
    from maquis.maquis.agents import HeuristicAgent

    actions, scores = HeuristicAgent(0).ranked(obs, masks, _core.HEURISTIC_RANKS)
    gaps = np.tanh((scores[:, :1] - scores) / np.float32(_core.HEURISTIC_GAP_SCALE)).astype(np.float32)
    return actions, np.where(actions >= 0, gaps, np.float32(0.0))


def heuristic_planes(actions: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """The planes (n, HEURISTIC_PLANES * NUM_ACTIONS) of `heuristic_ranks`' compact form."""
    from maquis import NUM_ACTIONS

    ranks = _core.HEURISTIC_RANKS
    planes = np.zeros((len(actions), ranks + 1, NUM_ACTIONS), np.float32)
    rows, cols = np.nonzero(actions >= 0)
    planes[rows, cols, actions[rows, cols]] = 1.0
    planes[rows, ranks, actions[rows, cols]] = gaps[rows, cols]
    return planes.reshape(len(actions), -1)


def write_network_file(path: str, tensors: dict[str, np.ndarray], extra: dict[str, str] | None = None,
                       dtype: str = "float32", inputs: str = "observation",
                       metadata: dict[str, str] | None = None) -> None:
    """Writes `tensors` as a weight file (`maquis-net-v1`, or `-v2` for other `inputs`), with numpy
    alone (the `safetensors` package reads it: tests/test_network.py checks both ways).
    `dtype="float16"` halves the file; the loaders widen it back to float32. `metadata`: another
    game's format and fingerprint (e.g. `maquis.dday.network.network_file_metadata()`) in place of
    Maquis's."""
    meta = network_metadata(inputs, **(extra or {})) if metadata is None else {**metadata, **(extra or {})}
    write_weights(path, tensors, meta, dtype)


def forward_numpy(tensors: dict[str, np.ndarray], rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reference forward pass in numpy: logits (n, NUM_ACTIONS) and values (n,) of input rows
    (the observations, or for a network with heuristic inputs `Network.inputs_of(obs)`)."""
    from maquis import NUM_ACTIONS, OBS_SIZE

    x = observation_float32(rows)
    extra = x[:, OBS_SIZE:]
    i = 0
    while f"trunk.{i}.weight" in tensors:
        x = np.maximum(x @ tensors[f"trunk.{i}.weight"].T + tensors[f"trunk.{i}.bias"], 0.0)
        i += 1
    logits = x @ tensors["policy.weight"].T + tensors["policy.bias"]
    if "prior.weight" in tensors:
        logits = logits + np.einsum("c,nca->na", tensors["prior.weight"], extra.reshape(len(x), -1, NUM_ACTIONS))
    v = x @ tensors["value.weight"].T + tensors["value.bias"]
    return logits, 1.0 / (1.0 + np.exp(-v[:, 0]))
