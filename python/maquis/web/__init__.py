"""`maquis serve`: play and watch the games in a browser (needs the `web` extra:
`pip install "maquis[web]"`, Starlette and uvicorn).

| module | holds |
|---|---|
| ``games`` | the games the app serves, behind one interface (a new game is one entry) |
| ``sessions`` | the games held for the browser tabs (per browser, by a cookie), and what a side may be sent |
| ``limits`` | the bounds the server holds to (bodies, JSON nesting, recording files, games held) |
| ``recordings`` | recorded episodes and playthroughs, found in the folders given at start |
| ``svg`` | the SVG backend of ``maquis.common.drawing`` |
| ``app`` | the Starlette app: the page and the JSON API |
| ``cli`` | the ``serve`` verb |
| ``static/`` | the page: ``index.html``, ``app.js``, ``style.css`` (nothing fetched from elsewhere) |

What the server guarantees to whoever sends it requests is in docs/serve.md.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "scene_to_svg"]


def __getattr__(name: str) -> Any:
    # Imported on use: `maquis serve --help` works without Starlette installed.
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "scene_to_svg":
        from .svg import scene_to_svg

        return scene_to_svg
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
