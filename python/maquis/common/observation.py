"""What every game's observation space shares: the two element types (`observation_dtype=`
"float32", the default, or "uint8") and the Box of each."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

#: The observation types the environments accept (`observation_dtype=`).
OBSERVATION_DTYPES = ("float32", "uint8")


def check_observation_dtype(dtype: Any) -> str:
    """`dtype` as "float32" or "uint8" (numpy dtypes and types accepted), else a ValueError."""
    try:
        name = np.dtype(dtype).name if not isinstance(dtype, str) else dtype
    except TypeError:
        name = None
    if name not in OBSERVATION_DTYPES:
        raise ValueError(f'observation_dtype must be "float32" or "uint8", got {dtype!r}')
    return name


def observation_box(dtype: str, shape: tuple[int, ...], high_uint8: Any) -> spaces.Box:
    """The Box of a game's observations of `dtype` ("float32": [0, 1]; "uint8": [0, high_uint8],
    the largest count of each feature, broadcast to `shape`)."""
    if check_observation_dtype(dtype) == "float32":
        return spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32)
    return spaces.Box(0, np.broadcast_to(high_uint8, shape), shape=shape, dtype=np.uint8)
