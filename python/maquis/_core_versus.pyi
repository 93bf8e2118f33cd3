# What the two-player games' modules of the extension have besides what every game's has
# (`_core_common.pyi`), declared once: each two-player game's stub takes it with
# `from ._core_versus import *` (tests/test_stubs.py reads it so).

from typing import Final

import numpy as np

__all__ = ["SIDES", "OBSERVATION_SIZE", "action_to_str", "action_from_str"]

#: The two sides' ids, the first side's first.
SIDES: Final[tuple[str, ...]]
OBSERVATION_SIZE: Final[int]

def action_to_str(index: int | np.integer) -> str: ...
def action_from_str(name: str) -> int: ...
