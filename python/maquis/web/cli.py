"""`maquis serve`: the web app on a local port, to play and watch the games in a browser."""

from __future__ import annotations

import argparse
import logging
import sys

from .limits import CAPACITY, IDLE_SECONDS, PER_CLIENT

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    p.add_argument("--recordings", action="append", default=[], metavar="DIR",
                   help="a folder of recordings to offer (episode files, playthroughs such as "
                        "tests/playthroughs); repeatable; no other folder is read")
    p.add_argument("--capacity", type=int, default=CAPACITY, metavar="N",
                   help=f"games held at once for all browsers; when full, a new game is refused (503) "
                        f"unless another has been idle {IDLE_SECONDS // 60} minutes (default {CAPACITY})")
    p.add_argument("--per-client", type=int, default=PER_CLIENT, metavar="N",
                   help=f"games held for one browser; its least recently used is dropped beyond "
                        f"(default {PER_CLIENT})")


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .app import create_app
    except ImportError as err:
        print(f"maquis serve: needs the web extra (pip install \"maquis[web]\"): {err}", file=sys.stderr)
        return 2
    for flag, value in (("--capacity", args.capacity), ("--per-client", args.per_client)):
        if value < 1:
            print(f"maquis serve: {flag} must be at least 1, got {value}", file=sys.stderr)
            return 2
    # The recordings skipped at start are told as warnings, on stderr.
    logging.basicConfig(format="maquis serve: %(message)s", level=logging.WARNING)
    try:
        app = create_app(args.recordings, capacity=args.capacity, per_client=args.per_client)
    except ValueError as err:
        print(f"maquis serve: {err}", file=sys.stderr)
        return 2
    found, skipped = len(app.state.library.recordings), len(app.state.library.skipped)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    extra = f", {skipped} skipped" if skipped else ""
    print(f"maquis serve: http://{shown}:{args.port}/ ({found} recordings{extra}); Ctrl-C stops", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
