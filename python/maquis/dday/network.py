"""D-Day's trained network: the weight file the `network` and `network_search` levels play.

The file is the shared `maquis-net-v1` format (see `maquis.maquis.network`: an MLP trunk, a policy head
of NUM_ACTIONS logits and a value head, float32/float16 safetensors) over D-Day's 380-float
observation, its `observation` metadata D-Day's `OBSERVATION_FINGERPRINT`
(`dday1944-obs380-a191-<hash of OBSERVATION_LAYOUT>`): a Maquis network, or one made for another
layout, is refused naming both fingerprints. The network runs in Rust; one network at a time is
loaded per process. The package ships `maquis/dday/networks/dday.safetensors` (made by `maquis dday
train`, docs/dday_training.md); it is loaded the first time a network level is asked for.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from .._core import dday as _dday

#: The levels that play the trained network.
NETWORK_LEVELS = ("network", "network_search")
NETWORK_FORMAT = _dday.NETWORK_FORMAT
OBSERVATION_FINGERPRINT = _dday.OBSERVATION_FINGERPRINT
SHIPPED_NAME = "dday"

__all__ = ["NETWORK_LEVELS", "OBSERVATION_FINGERPRINT", "shipped_network_path", "load_network", "ensure_network",
           "network_metadata", "network_file_metadata"]


def shipped_network_path() -> Path | None:
    """The shipped network's file, or None when the package has none."""
    p = resources.files("maquis.dday") / "networks" / f"{SHIPPED_NAME}.safetensors"
    return Path(str(p)) if p.is_file() else None


def load_network(path: Any) -> dict[str, str]:
    """Makes the weight file at `path` the network of the `network` levels (agents and
    environments built afterwards play it); returns its metadata. A MaquisError names what is
    wrong with the file (another game's network: both fingerprints)."""
    return dict(_dday.load_network(str(path)))


def network_metadata() -> dict[str, str] | None:
    """The metadata of the loaded network, or None."""
    meta = _dday.network_metadata()
    return None if meta is None else dict(meta)


def ensure_network() -> dict[str, str]:
    """The loaded network's metadata, loading the shipped one first if none is loaded; a
    ValueError when none is loaded and none is shipped."""
    meta = network_metadata()
    if meta is not None:
        return meta
    path = shipped_network_path()
    if path is None:
        raise ValueError(
            "the D-Day 'network' levels need a trained network: this maquis ships none "
            "(maquis/dday/networks/dday.safetensors); train one with `maquis dday train` and load it with "
            "maquis.dday.agents.load_network(path)"
        )
    return load_network(path)


def network_file_metadata(**extra: str) -> dict[str, str]:
    """The metadata a D-Day weight file of this build must carry (plus `extra`)."""
    return {"format": NETWORK_FORMAT, "observation": OBSERVATION_FINGERPRINT, **extra}
