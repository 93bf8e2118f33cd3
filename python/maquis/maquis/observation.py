"""The observation's two element types: float32 (the default) and uint8 (`observation_dtype=`).

Every feature is a flag or a small count, so the uint8 row holds each value exactly, in a quarter
of the bytes: the float32 value is the uint8 value divided by `OBSERVATION_DIVISOR` (1 for flags
and one-hot slices, 4 for token counts, 5 for workers and patrols, 7 for boxes done, 10 for the
deck size). The exception is the first value of `mission_a_state` / `mission_b_state`, the share
of the card's boxes done: its denominator depends on the mission, so its uint8 form is the card's
box count (divisor 0 here) and its float32 form the next value's count divided by it.
`observation_float32` does the conversion, bit for bit; `OBSERVATION_SCALE` (1 / divisor) is for
multiplying (equal to within one unit in the last place).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .._core.maquis import OBS_SIZE, OBSERVATION_DIVISOR as _DIVISOR
from ..common.observation import OBSERVATION_DTYPES, check_observation_dtype, observation_box  # noqa: F401 - re-exported

#: uint8 (OBS_SIZE,): what each uint8 value is divided by to give the float32 one (0: a share of
#: boxes done, see the module docstring). Recorded by the Rust encoder itself.
OBSERVATION_DIVISOR = np.array(_DIVISOR, dtype=np.uint8)
OBSERVATION_DIVISOR.flags.writeable = False

_SHARES = np.flatnonzero(OBSERVATION_DIVISOR == 0)

#: float32 (OBS_SIZE,): 1 / divisor (0 for the shares of boxes done).
OBSERVATION_SCALE = np.where(OBSERVATION_DIVISOR > 0, 1.0 / np.maximum(OBSERVATION_DIVISOR, 1), 0.0).astype(np.float32)
OBSERVATION_SCALE.flags.writeable = False

#: uint8 (OBS_SIZE,): the largest value of each uint8 feature (its divisor; for a share of boxes
#: done, the most boxes on a card).
OBS_HIGH_UINT8 = OBSERVATION_DIVISOR.copy()
OBS_HIGH_UINT8[_SHARES] = OBSERVATION_DIVISOR[_SHARES + 1]
OBS_HIGH_UINT8.flags.writeable = False

_FLOAT_DIVISOR = np.where(OBSERVATION_DIVISOR > 0, OBSERVATION_DIVISOR, 1).astype(np.float32)


def observation_space(dtype: str, shape: tuple[int, ...] = (OBS_SIZE,)) -> spaces.Box:
    """The Box of Maquis observations of `dtype` ("float32": [0, 1]; "uint8": [0, OBS_HIGH_UINT8])."""
    return observation_box(dtype, shape, OBS_HIGH_UINT8)


def observation_float32(obs: np.ndarray) -> np.ndarray:
    """Observations (..., OBS_SIZE) as float32: uint8 rows converted exactly (equal bit for bit to
    what `observation_dtype="float32"` returns), float32 rows as they are (not copied)."""
    obs = np.asarray(obs)
    if obs.dtype == np.float32:
        return obs
    if obs.dtype != np.uint8:
        return obs.astype(np.float32)
    if obs.shape[-1:] != (OBS_SIZE,):
        raise ValueError(f"uint8 observations must have {OBS_SIZE} values in their last axis, got shape {obs.shape}")
    out = obs.astype(np.float32)
    out /= _FLOAT_DIVISOR
    boxes = obs[..., _SHARES].astype(np.float32)
    out[..., _SHARES] = obs[..., _SHARES + 1].astype(np.float32) / np.where(boxes > 0, boxes, 1)
    return out
