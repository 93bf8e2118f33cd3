"""`maquis serve`: the web app on a local port, to play and watch the games in a browser."""

from __future__ import annotations

import argparse
import sys

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    p.add_argument("--recordings", action="append", default=[], metavar="DIR",
                   help="a folder of recordings to offer (episode files, playthroughs such as "
                        "tests/playthroughs); repeatable; no other folder is read")
    p.add_argument("--capacity", type=int, default=200, metavar="N",
                   help="games held at once; the least recently used is dropped beyond (default 200)")


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .app import create_app
    except ImportError as err:
        print(f"maquis serve: needs the web extra (pip install \"maquis[web]\"): {err}", file=sys.stderr)
        return 2
    if args.capacity < 1:
        print(f"maquis serve: --capacity must be at least 1, got {args.capacity}", file=sys.stderr)
        return 2
    try:
        app = create_app(args.recordings, capacity=args.capacity)
    except ValueError as err:
        print(f"maquis serve: {err}", file=sys.stderr)
        return 2
    found = len(app.state.library.recordings)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"maquis serve: http://{shown}:{args.port}/ ({found} recordings); Ctrl-C stops", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
