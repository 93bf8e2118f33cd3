"""Maurice Lite's levels by id (RULES D1, and the trained network levels)."""

from __future__ import annotations

from ..common.single import BUNDLED_OPPONENTS
from ..common.trained import NETWORK_LEVELS

#: The shared three, then the trained network alone and guiding the search.
OPPONENTS = (*BUNDLED_OPPONENTS, *NETWORK_LEVELS)
