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
    "render": ("maquis.replay", "write a PNG of a saved state"),
    "replay": ("maquis.replay", "turn a recorded episode into PNG frames or a GIF"),
    "playthrough": ("maquis.playthrough", "play, check or regenerate the golden playthroughs (tests/playthroughs)"),
    "docs": ("maquis.docs", "write or check docs/maquis.md, the environment's reference page"),
    "dday": ("maquis.dday.cli", "French Resistance D-Day 1944: play, eval, bench, render, docs"),
    "train": ("maquis.train.expert", "train the network by expert iteration (needs torch: maquis[train])"),
}


def _load(name: str, module: str):
    """(add_arguments, run) of a subcommand, or (None, why) when its module is not available."""
    try:
        mod = importlib.import_module(module)
    except ImportError as e:  # not written yet, or a missing optional dependency
        return None, f"{module} cannot be imported ({e})"
    add = getattr(mod, f"add_{name}_arguments", getattr(mod, "add_arguments", None))
    run = getattr(mod, f"run_{name}", getattr(mod, "run", None))
    if add is None or run is None:
        return None, f"{module} defines no add_arguments/run"
    return (add, run), None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="maquis", description="Maquis: a fast RL environment for the solitaire board game.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module, help_text) in COMMANDS.items():
        funcs, why = _load(name, module)
        if funcs is None:
            # Skipped with a note: the other subcommands keep working.
            p = sub.add_parser(name, help=f"{help_text} [unavailable]", description=f"unavailable: {why}")
            p.set_defaults(_run=lambda args, name=name, why=why: _unavailable(name, why), _unavailable=True)
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        funcs[0](p)
        p.set_defaults(_run=funcs[1])
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "_unavailable", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return int(args._run(args) or 0)


def _unavailable(name: str, why: str) -> int:
    print(f"maquis {name}: not available in this installation: {why}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
