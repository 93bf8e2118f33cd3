"""``maquis dday render``: a PNG (or the text view) of a position from a saved state.

The file is either what ``save_state()`` wrote (a versioned JSON save, loaded into an
environment) or a ``state_dict()`` dumped as JSON. ``--side`` draws one side's view only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .render import render_ansi, render_rgb, side_view, write_png


def load_position(text: str) -> dict:
    """The state_dict of a saved state or of a dumped state_dict (JSON text)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not JSON: {err}") from None
    if isinstance(data, dict) and "phase" in data and "allocation" in data:
        return data  # a state_dict
    from . import raw_env

    env = raw_env()
    env.reset(seed=0)
    env.load_state(text)
    return env.state_dict()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("state", help="a file written by save_state(), or a state_dict() as JSON")
    p.add_argument("-o", "--out", default="dday.png", help="the PNG written (default dday.png)")
    p.add_argument("--width", type=int, default=960, help="image width in pixels (default 960)")
    p.add_argument("--side", choices=("resistance", "german"), help="draw only what this side sees")
    p.add_argument("--text", action="store_true", help="print the text view instead of writing a PNG")


def run(args: argparse.Namespace) -> int:
    try:
        sd = load_position(Path(args.state).read_text())
        if args.side:
            sd = side_view(sd, args.side)
        if args.text:
            sys.stdout.write(render_ansi(sd))
            return 0
        write_png(args.out, render_rgb(sd, width=args.width))
    except (OSError, ValueError, KeyError, TypeError) as err:
        print(f"maquis dday render: cannot draw {args.state!r}: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0
