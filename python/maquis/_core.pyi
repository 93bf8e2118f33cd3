"""Stubs of the private extension module `maquis._core` (src/py/): what every game shares; each
game is a submodule (`maquis._core.maquis`, `.dday`, `.maurice`). Use the public API in `maquis`."""

from typing import Final, final

from . import _core_dday as dday  # the D-Day 1944 submodule `maquis._core.dday` (its stubs)
from . import _core_maquis as maquis  # the Maquis submodule `maquis._core.maquis` (its stubs)
from . import _core_maurice as maurice  # the Maurice Lite submodule `maquis._core.maurice` (its stubs)
from . import _core_kuhn as kuhn  # the Kuhn poker submodule `maquis._core.kuhn` (its stubs)

__all__ = [
    "__version__",
    "MaquisError",
    "IllegalActionError",
    "save_game",
    "WorkerThreads",
    "NETWORK_FORMAT",
    "NETWORK_FORMAT_V2",
    "maquis",
    "dday",
    "maurice",
    "kuhn",
]

__version__: Final[str]
NETWORK_FORMAT: Final[str]
"""The `format` of a weight file of any game's network (`maquis-net-v1`)."""
NETWORK_FORMAT_V2: Final[str]
"""The `format` of a weight file whose network reads extra planes (`maquis-net-v2`, with `inputs`)."""

@final
class WorkerThreads:
    """The threads a vector engine of any game steps on (its worker pool and the driver thread of
    `send`), from `VecEngine.worker_threads()`, for another engine's `use_worker_threads`."""

    @property
    def num_threads(self) -> int: ...

class MaquisError(ValueError):
    """An input the engine refuses: an action out of range or illegal now, an unknown id, a bad
    option, a malformed saved state, or a step after the episode ended."""

class IllegalActionError(MaquisError):
    """An action the rules do not allow now (illegal_action="raise"); the state is unchanged."""

def save_game(json: str) -> str | None:
    """The game a save (a state, an environment's save or pickle) belongs to: "maquis", "dday",
    "maurice", or None when it is no game's save."""
