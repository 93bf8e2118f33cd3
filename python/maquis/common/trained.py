"""A two-player game's trained network in Python, written once: the weight file its `network` and
`network_search` levels play (`TrainedNetwork`: the file the package ships, loading another, the
metadata a file of this build carries) and those levels as agents (`NetworkAgentBase`,
`NetworkSearchAgentBase`). The network itself runs in Rust (`_core.<game>.load_network`); one
network per game is loaded per process, the shipped one the first time a network level is asked
for.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, Callable, ClassVar

from .agents import BundledAgent, check_budget

__all__ = ["NETWORK_LEVELS", "TrainedNetwork", "NetworkAgentBase", "NetworkSearchAgentBase"]

#: The levels that play the trained network.
NETWORK_LEVELS = ("network", "network_search")


class TrainedNetwork:
    """The network of `package`'s levels (`core`: its extension module, with `load_network`,
    `network_metadata`, `NETWORK_FORMAT`, `OBSERVATION_FINGERPRINT`); the package ships
    `networks/<shipped_name>.safetensors`. `title` and `verb` name the game and its train command
    in the error when none is loaded and none is shipped."""

    def __init__(self, package: str, core: Any, shipped_name: str, title: str, verb: str) -> None:
        self.package, self.core, self.shipped_name = package, core, shipped_name
        self.title, self.verb = title, verb

    def shipped_path(self) -> Path | None:
        """The shipped network's file, or None when the package has none."""
        p = resources.files(self.package) / "networks" / f"{self.shipped_name}.safetensors"
        return Path(str(p)) if p.is_file() else None

    def load(self, path: Any) -> dict[str, str]:
        """Makes the weight file at `path` the network of the `network` levels (agents and
        environments built afterwards play it); returns its metadata. A MaquisError names what is
        wrong with the file (another game's network: both fingerprints)."""
        return dict(self.core.load_network(str(path)))

    def metadata(self) -> dict[str, str] | None:
        """The metadata of the loaded network, or None."""
        meta = self.core.network_metadata()
        return None if meta is None else dict(meta)

    def ensure(self) -> dict[str, str]:
        """The loaded network's metadata, loading the shipped one first if none is loaded; a
        ValueError when none is loaded and none is shipped."""
        return self.ensure_from(self.metadata(), self.shipped_path())

    def ensure_from(self, loaded: dict[str, str] | None, shipped: Path | None) -> dict[str, str]:
        """`ensure` given the loaded network's metadata and the shipped file (a game's module
        passes its own functions' answers, which its tests may replace)."""
        if loaded is not None:
            return loaded
        if shipped is None:
            folder = self.package.replace(".", "/")
            raise ValueError(
                f"the {self.title} 'network' levels need a trained network: this maquis ships none "
                f"({folder}/networks/{self.shipped_name}.safetensors); train one with `{self.verb}` and load it "
                f"with {self.package}.agents.load_network(path)"
            )
        return self.load(shipped)

    def file_metadata(self, **extra: str) -> dict[str, str]:
        """The metadata a weight file of this build must carry (plus `extra`)."""
        return {"format": self.core.NETWORK_FORMAT, "observation": self.core.OBSERVATION_FINGERPRINT, **extra}

    def ensure_level(self, level: str) -> str:
        """`level`, the shipped network loaded first when it is a network level and none is."""
        if level in NETWORK_LEVELS:
            self.ensure()
        return level


class NetworkAgentBase(BundledAgent):
    """D1 `network`: the trained network's highest-logit legal action, in Rust (no stream: the
    same observation always gets the same action). `network`: a weight file to load first
    (None: the loaded network, else the shipped one; a ValueError when there is none)."""

    _id = "network"
    #: The game's `load_network(path)` and `ensure_network()`.
    _load: ClassVar[Callable[[Any], dict[str, str]]]
    _ensure: ClassVar[Callable[[], dict[str, str]]]

    def __init__(self, network: Any = None, seed: int | None = 0) -> None:
        # `seed` matters only where the game's level has a stream (D-Day's zone relabelling).
        self.metadata = type(self)._load(network) if network is not None else type(self)._ensure()
        super().__init__(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class NetworkSearchAgentBase(BundledAgent):
    """D1 `network_search`: the game's search guided by the trained network, `budget` playouts per
    searched decision, in Rust. `network`: as for the `network` level."""

    _id = "network_search"
    _load: ClassVar[Callable[[Any], dict[str, str]]]
    _ensure: ClassVar[Callable[[], dict[str, str]]]

    def __init__(self, budget: int = 200, seed: int | None = None, network: Any = None) -> None:
        self.budget = check_budget(budget)
        self.metadata = type(self)._load(network) if network is not None else type(self)._ensure()
        super().__init__(seed, self.budget)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(budget={self.budget})"
