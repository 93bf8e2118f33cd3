"""D-Day's trained network: the weight file the `network` and `network_search` levels play.

The file is the shared `maquis-net-v1` format (see `maquis.maquis.network`: an MLP trunk, a policy head
of NUM_ACTIONS logits and a value head, float32/float16 safetensors) over D-Day's 380-float
observation, its `observation` metadata D-Day's `OBSERVATION_FINGERPRINT`
(`dday1944-obs380-a191-<hash of OBSERVATION_LAYOUT>`): a Maquis network, or one made for another
layout, is refused naming both fingerprints. The network runs in Rust; one network at a time is
loaded per process. The package ships `maquis/dday/networks/dday.safetensors` (made by `maquis dday
train`, docs/dday_training.md); it is loaded the first time a network level is asked for (the
shared `maquis.common.trained`).
"""

from __future__ import annotations

from pathlib import Path

from .._core import dday as _dday
from ..common.trained import NETWORK_LEVELS, TrainedNetwork

NETWORK_FORMAT = _dday.NETWORK_FORMAT
OBSERVATION_FINGERPRINT = _dday.OBSERVATION_FINGERPRINT
SHIPPED_NAME = "dday"
NETWORK = TrainedNetwork("maquis.dday", _dday, SHIPPED_NAME, "D-Day", "maquis dday train")

load_network = NETWORK.load
network_file_metadata = NETWORK.file_metadata


def shipped_network_path() -> Path | None:
    """The shipped network's file, or None when the package has none."""
    return NETWORK.shipped_path()


def network_metadata() -> dict[str, str] | None:
    """The metadata of the loaded network, or None."""
    return NETWORK.metadata()


def ensure_network() -> dict[str, str]:
    """The loaded network's metadata, loading the shipped one first if none is loaded; a
    ValueError when none is loaded and none is shipped."""
    return NETWORK.ensure_from(network_metadata(), shipped_network_path())

__all__ = ["NETWORK_LEVELS", "OBSERVATION_FINGERPRINT", "shipped_network_path", "load_network", "ensure_network",
           "network_metadata", "network_file_metadata"]
