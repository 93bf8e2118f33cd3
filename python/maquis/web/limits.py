"""The bounds the server holds to, in one place: request bodies, JSON nesting, recording files, the
games held per client and in all.

JSON from outside (a request body, a recording file) is read by `load_json`, which refuses text
nested deeper than a bound instead of letting the parser (or code that walks the result) run out
of stack.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "MAX_BODY", "MAX_BODY_DEPTH", "MAX_FILE_BYTES", "MAX_FILE_DEPTH", "MAX_FILES", "MAX_STEP_DIGITS",
    "CAPACITY", "PER_CLIENT", "IDLE_SECONDS", "depth_within", "load_json",
]

MAX_BODY = 64_000  # bytes of a request body
MAX_BODY_DEPTH = 8  # arrays and objects nested in a request body (the API needs 2)
MAX_FILE_BYTES = 4_000_000  # a recording file; larger files are not recordings of one game
MAX_FILE_DEPTH = 32  # arrays and objects nested in an episode file (they need 3 or 4)
MAX_FILES = 10_000  # recordings offered from all the folders together
MAX_STEP_DIGITS = 9  # a position of a recording, in a URL

CAPACITY = 200  # games held in all
PER_CLIENT = 8  # games held for one client (one browser): its least recently used goes beyond
IDLE_SECONDS = 30 * 60  # when full, another client's game unused this long may be dropped


def depth_within(value: Any, limit: int) -> bool:
    """Whether `value` (parsed JSON) nests arrays and objects `limit` deep at most (walked without
    recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return False
        stack.extend((child, depth + 1) for child in children)
    return True


def load_json(text: str | bytes, max_depth: int) -> Any:
    """`json.loads(text)`; ValueError, with the reason, when it is not JSON (bad syntax, bad UTF-8,
    a number too long to read) or nests deeper than `max_depth`."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested deeper than {max_depth} levels") from None
    except ValueError as err:  # JSONDecodeError, UnicodeDecodeError, an integer over Python's digits
        raise ValueError(f"not JSON: {err}") from None
    if not depth_within(data, max_depth):
        raise ValueError(f"nested deeper than {max_depth} levels")
    return data
