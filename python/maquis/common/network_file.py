"""The weight file every game's network uses: one safetensors file (float32, float16 or bfloat16
tensors, widened to float32 on load), written and read with numpy alone, and the metadata the Rust
loader checks (`format`: `maquis-net-v1`, or `-v2` with `inputs`; `observation`: the fingerprint of
the game's observation). Each game's network module adds its own fingerprint and tensors' shapes.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core

NETWORK_FORMAT = _core.NETWORK_FORMAT
NETWORK_FORMAT_V2 = _core.NETWORK_FORMAT_V2


def weights_metadata(fingerprint: str, inputs: str = "observation", **extra: str) -> dict[str, str]:
    """The metadata of a weight file for the observation of `fingerprint` (plus `extra`); `inputs`
    other than "observation" (extra input planes a game defines) make it a v2 file."""
    if inputs == "observation":
        return {"format": NETWORK_FORMAT, "observation": fingerprint, **extra}
    return {"format": NETWORK_FORMAT_V2, "observation": fingerprint, "inputs": inputs, **extra}


# safetensors dtype names of the storage types a weight file may use, and their numpy types
# (bfloat16 has none: it is read as the upper half of a float32).
STORAGE_DTYPES = {"float32": ("F32", "<f4"), "float16": ("F16", "<f2")}


def write_weights(path: str, tensors: Mapping[str, np.ndarray], metadata: Mapping[str, str],
                  dtype: str = "float32") -> None:
    """Writes `tensors` with `metadata` as a safetensors file, with numpy alone; `dtype="float16"`
    halves the file (the loaders widen it back to float32)."""
    if dtype not in STORAGE_DTYPES:
        raise ValueError(f"dtype must be one of {sorted(STORAGE_DTYPES)}, got {dtype!r}")
    tag, np_dtype = STORAGE_DTYPES[dtype]
    header: dict[str, Any] = {"__metadata__": dict(metadata)}
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
