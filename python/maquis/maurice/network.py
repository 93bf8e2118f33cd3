"""Maurice Lite's trained network: the weight file the `network` and `network_search` levels play.

The file is the shared `maquis-net-v1` format (an MLP trunk, a policy head of NUM_ACTIONS logits
and a value head, float32/float16 safetensors) over Maurice's compact observation (the leading
1084 values of the full one: the state and the unit table, not the map planes), its
`observation` metadata Maurice's `OBSERVATION_FINGERPRINT` (`maurice-obs1084-a1447-<hash of
COMPACT_OBSERVATION_LAYOUT>`): another game's network, or one made for another layout, is refused
naming both fingerprints. The network runs in Rust; one network at a time is loaded per process.
The package ships `maquis/maurice/networks/maurice.safetensors` (made by `maquis maurice train`,
docs/maurice_training.md); it is loaded the first time a network level is asked for.
"""

from __future__ import annotations

from .._core import maurice as _maurice
from ..common.trained import NETWORK_LEVELS, TrainedNetwork

NETWORK_FORMAT = _maurice.NETWORK_FORMAT
OBSERVATION_FINGERPRINT = _maurice.OBSERVATION_FINGERPRINT
NETWORK = TrainedNetwork("maquis.maurice", _maurice, "maurice", "Maurice Lite", "maquis maurice train")

shipped_network_path = NETWORK.shipped_path
load_network = NETWORK.load
network_metadata = NETWORK.metadata
ensure_network = NETWORK.ensure
network_file_metadata = NETWORK.file_metadata

__all__ = ["NETWORK_LEVELS", "OBSERVATION_FINGERPRINT", "shipped_network_path", "load_network", "ensure_network",
           "network_metadata", "network_file_metadata"]
