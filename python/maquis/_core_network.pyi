# What the modules of the games whose levels play a trained network on the shared bindings
# (src/py/common/network.rs: D-Day, Maurice Lite) have, declared once: each such game's stub takes
# it with `from ._core_network import *` (tests/test_stubs.py reads it so). `selfplay` is each
# game's own (its teachers and options differ).

from typing import Any, Final

import numpy as np
import numpy.typing as npt

__all__ = ["NETWORK_FORMAT", "OBSERVATION_FINGERPRINT", "load_network", "network_metadata", "network_forward"]

#: The weight file's format tag (`maquis-net-v1`).
NETWORK_FORMAT: Final[str]
#: The game's observation fingerprint, which a weight file must name.
OBSERVATION_FINGERPRINT: Final[str]

def load_network(path: str | Any) -> dict[str, str]: ...
def network_metadata() -> dict[str, str] | None: ...
def network_forward(
    obs: npt.NDArray[np.float32],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...
