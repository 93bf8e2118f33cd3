"""A progress bar for long commands: tqdm on stderr when stderr is a terminal, nothing otherwise
(a redirected log gets no carriage-return frames) or when the user asked for none."""

from __future__ import annotations

from typing import Any


class _Silent:
    """What `progress_bar` returns when no bar is shown: the same calls, doing nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def set_description(self, desc: str | None = None) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> "_Silent":
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


def progress_bar(total: int, unit: str = "game", enabled: bool = True, desc: str | None = None) -> Any:
    """A bar counting `total` `unit`s, with `update(n)`, `set_description(text)` and `close()`.

    Shown only when `enabled` and stderr is a terminal."""
    if not enabled:
        return _Silent()
    try:
        from tqdm import tqdm
    except ImportError:  # an installation without it still runs, silently
        return _Silent()
    # disable=None: tqdm itself turns the bar off when its stream (stderr) is not a terminal.
    return tqdm(total=total, unit=unit, desc=desc, disable=None, leave=False, dynamic_ncols=True)
