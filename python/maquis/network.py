"""The learned network: `maquis-net-v1` weight files, the shipped networks, a numpy reference.

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
build's, naming both. Play needs no torch: the network runs in Rust (`maquis._core.Network`).

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

from maquis import _core
from maquis.observation import observation_float32

NETWORK_FORMAT = _core.NETWORK_FORMAT
OBSERVATION_FINGERPRINT = _core.OBSERVATION_FINGERPRINT
DEFAULT_NETWORK = "baseline"


def shipped_networks() -> tuple[str, ...]:
    """Names of the networks shipped as package data."""
    folder = resources.files("maquis") / "networks"
    return tuple(sorted(p.name[: -len(".safetensors")] for p in folder.iterdir() if p.name.endswith(".safetensors")))


def network_path(name: str) -> Path:
    """The file of a shipped network."""
    p = resources.files("maquis") / "networks" / f"{name}.safetensors"
    if not p.is_file():
        raise ValueError(f"no shipped network {name!r}: shipped are {', '.join(shipped_networks()) or 'none'}")
    return Path(str(p))


def load_network(network: Any = DEFAULT_NETWORK) -> Any:
    """A `maquis._core.Network` from a shipped name, a path, or a Network (returned as is)."""
    if isinstance(network, _core.Network):
        return network
    s = str(network)
    path = Path(s) if (s.endswith(".safetensors") or "/" in s or Path(s).exists()) else network_path(s)
    return _core.Network.load(str(path))


def network_metadata(**extra: str) -> dict[str, str]:
    """The metadata a weight file for this build must carry (plus `extra`)."""
    return {"format": NETWORK_FORMAT, "observation": OBSERVATION_FINGERPRINT, **extra}


# safetensors dtype names of the storage types a weight file may use, and their numpy types
# (bfloat16 has none: it is read as the upper half of a float32).
STORAGE_DTYPES = {"float32": ("F32", "<f4"), "float16": ("F16", "<f2")}


def write_network_file(path: str, tensors: dict[str, np.ndarray], extra: dict[str, str] | None = None,
                       dtype: str = "float32") -> None:
    """Writes `tensors` as a `maquis-net-v1` safetensors file, with numpy alone (the `safetensors`
    package reads it: tests/test_network.py checks both ways). `dtype="float16"` halves the file;
    the loaders widen it back to float32."""
    if dtype not in STORAGE_DTYPES:
        raise ValueError(f"dtype must be one of {sorted(STORAGE_DTYPES)}, got {dtype!r}")
    tag, np_dtype = STORAGE_DTYPES[dtype]
    header: dict[str, Any] = {"__metadata__": network_metadata(**(extra or {}))}
    blobs, offset = [], 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name], dtype=np_dtype)
        header[name] = {"dtype": tag, "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
        blobs.append(a.tobytes())
        offset += a.nbytes
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned, as safetensors writes it
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def read_network_file(path: str) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """(tensors, metadata) of a weight file, read with numpy alone (safetensors is a JSON header
    after its 8-byte little-endian length, then the raw little-endian data)."""
    raw = Path(path).read_bytes()
    if len(raw) < 8:
        raise ValueError(f"{path}: not a safetensors file (too short)")
    (n,) = struct.unpack("<Q", raw[:8])
    if 8 + n > len(raw):
        raise ValueError(f"{path}: not a safetensors file (header length {n} beyond the end)")
    header = json.loads(raw[8 : 8 + n])
    meta = header.pop("__metadata__", {}) or {}
    data = raw[8 + n :]
    tensors = {}
    for name, t in header.items():
        a, b = t["data_offsets"]
        if t["dtype"] == "F32":
            values = np.frombuffer(data[a:b], dtype="<f4")
        elif t["dtype"] == "F16":
            values = np.frombuffer(data[a:b], dtype="<f2").astype(np.float32)
        elif t["dtype"] == "BF16":
            values = (np.frombuffer(data[a:b], dtype="<u2").astype(np.uint32) << 16).view(np.float32)
        else:
            raise ValueError(f"{path}: tensor {name!r} is {t['dtype']}, expected F32, F16 or BF16")
        tensors[name] = values.reshape(t["shape"])
    return tensors, meta


def forward_numpy(tensors: dict[str, np.ndarray], obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reference forward pass in numpy: logits (n, NUM_ACTIONS) and values (n,)."""
    x = observation_float32(obs)
    i = 0
    while f"trunk.{i}.weight" in tensors:
        x = np.maximum(x @ tensors[f"trunk.{i}.weight"].T + tensors[f"trunk.{i}.bias"], 0.0)
        i += 1
    logits = x @ tensors["policy.weight"].T + tensors["policy.bias"]
    v = x @ tensors["value.weight"].T + tensors["value.bias"]
    return logits, 1.0 / (1.0 + np.exp(-v[:, 0]))
