"""The `maquis` command line (also `python -m maquis`): `maquis <game> <verb> …`, with `maquis <verb>`
for the Maquis game. The games and their verbs are listed in `maquis.common.cli.GAMES`."""

from __future__ import annotations

import sys

from .common.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
