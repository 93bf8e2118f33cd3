"""The `maquis` command line (also `python -m maquis`).

Each subcommand lives in the module that implements it; that module defines
`add_arguments(parser)` and `run(args) -> int`. This file only wires them together.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# subcommand -> (module, one-line help)
COMMANDS = {
    "eval": ("maquis.evaluate", "evaluate agents or a saved policy across difficulty levels"),
    "bench": ("maquis.bench", "measure engine, single-env and vector-env throughput"),
    "play": ("maquis.play", "play a whole game in the terminal"),
    "render": ("maquis.play", "write a PNG of a saved state"),
    "replay": ("maquis.play", "turn a recorded episode into PNG frames or a GIF"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="maquis", description="Maquis: a fast RL environment for the solitaire board game.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        mod = importlib.import_module(module)
        getattr(mod, f"add_{name}_arguments", getattr(mod, "add_arguments", None))(p)
        p.set_defaults(_run=getattr(mod, f"run_{name}", getattr(mod, "run", None)))
    args = parser.parse_args(argv)
    return int(args._run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
