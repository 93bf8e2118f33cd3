"""``maquis dday …``: the D-Day 1944 subcommands, wired like the top-level ``maquis`` command
(each module defines ``add_arguments(parser)`` and ``run(args) -> int``)."""

from __future__ import annotations

import argparse
import importlib

COMMANDS = {
    "play": ("maquis.dday.play", "play D-Day 1944 in the terminal against a bundled opponent, or hot-seat"),
    "eval": ("maquis.dday.evaluation", "win/draw/loss with 95% CIs and mean VP per side and opponent"),
    "bench": ("maquis.dday.bench", "engine and vector-env throughput"),
    "render": ("maquis.dday.snapshot", "write a PNG of a position from a saved state"),
    "docs": ("maquis.dday.docs", "write or check docs/dday.md, the environment's reference page"),
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="dday_command", required=True, metavar="{" + ",".join(COMMANDS) + "}")
    for name, (module, help_text) in COMMANDS.items():
        q = sub.add_parser(name, help=help_text.replace("%", "%%"), description=help_text)
        q.set_defaults(_dday_module=module)
        try:
            importlib.import_module(module).add_arguments(q)
        except ImportError as e:
            q.set_defaults(_dday_unavailable=str(e))


def run(args: argparse.Namespace) -> int:
    why = getattr(args, "_dday_unavailable", None)
    if why:
        print(f"maquis dday {args.dday_command}: not available in this installation: {why}")
        return 2
    return int(importlib.import_module(args._dday_module).run(args) or 0)
