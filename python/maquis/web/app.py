"""The web app (Starlette): the page, its static files and the JSON API.

    GET  /api/games                          the games, their seats, agents and settings
    POST /api/play    {game, side, opponent, settings, seed}   a person plays a side: {session, frames, current}
    POST /api/watch   {game, agents, settings, seed, side}     agents play, watched: {session, current}
    GET  /api/session/{id}                   the position now (as the session's side sees it)
    POST /api/session/{id}/act  {action, step}   the person's decision; the agents' replies, a frame each
    POST /api/session/{id}/next {step}           one agent decision of a watched game
    GET  /api/recordings                     the recordings found at start, by id
    GET  /api/recordings/{id}                one recording: its length and header
    GET  /api/recordings/{id}/{step}?side=S  one position of it

A malformed, stale or illegal request gets a 4xx answer `{"error": "<what was wrong>"}`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .games import GAMES, GameError, game
from .recordings import Library, describe_replay
from .sessions import Match, RequestError, Sessions

__all__ = ["STATIC", "create_app"]

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64_000


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise RequestError(413, f"the request body is over {MAX_BODY} bytes")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise RequestError(400, f"the request body is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise RequestError(400, f"the request body must be a JSON object, got {type(data).__name__}")
    return data


def _seed(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**32:
        raise RequestError(400, f"`seed` must be an integer from 0 to 2**32 - 1, got {value!r}")
    return value


def _mapping(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key) or {}
    if not isinstance(value, dict):
        raise RequestError(400, f"`{key}` must be an object, got {value!r}")
    return value


def _new_play(data: dict[str, Any]) -> Match:
    g = game(data.get("game"))
    settings = g.check_settings(_mapping(data, "settings"))
    side = g.check_seat(data.get("side", g.seats[0]))
    others = [s for s in g.seats if s != side]
    opponent = g.check_agent(data.get("opponent", "heuristic")) if others else None
    return Match(g, settings, (side,), {s: opponent for s in others}, side, _seed(data.get("seed")))


def _new_watch(data: dict[str, Any]) -> Match:
    g = game(data.get("game"))
    settings = g.check_settings(_mapping(data, "settings"))
    agents = _mapping(data, "agents")
    unknown = set(agents) - set(g.seats)
    if unknown:
        raise GameError(f"agents are given per side ({', '.join(g.seats)}), not for {sorted(unknown)[0]!r}")
    chosen = {s: g.check_agent(agents.get(s, "heuristic")) for s in g.seats}
    side = data.get("side")
    viewer = g.check_seat(side) if side is not None else (g.seats[0] if len(g.seats) == 1 else None)
    return Match(g, settings, (), chosen, viewer, _seed(data.get("seed")))


def create_app(recordings: Iterable[str | Path] = (), capacity: int = 200) -> Starlette:
    """The app, serving recordings from the folders `recordings` only, holding up to `capacity`
    games (the least recently used are dropped first)."""
    sessions = Sessions(capacity)
    library = Library(recordings)

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def games(request: Request) -> JSONResponse:
        return JSONResponse({"games": [g.describe() for g in GAMES.values()]})

    async def play(request: Request) -> JSONResponse:
        data = await _body(request)

        def start() -> dict[str, Any]:
            match = _new_play(data)
            frames = [match.describe(f) for f in match.start()]
            return {"session": sessions.add(match), "frames": frames, "current": match.current()}

        return JSONResponse(await run_in_threadpool(start))

    async def watch(request: Request) -> JSONResponse:
        data = await _body(request)

        def start() -> dict[str, Any]:
            match = _new_watch(data)
            return {"session": sessions.add(match), "current": match.current()}

        return JSONResponse(await run_in_threadpool(start))

    async def session(request: Request) -> JSONResponse:
        match = sessions.get(request.path_params["sid"])
        return JSONResponse(await run_in_threadpool(match.current))

    async def act(request: Request) -> JSONResponse:
        match = sessions.get(request.path_params["sid"])
        data = await _body(request)
        frames = await run_in_threadpool(match.play, data.get("action"), data.get("step"))
        return JSONResponse({"frames": frames})

    async def advance(request: Request) -> JSONResponse:
        match = sessions.get(request.path_params["sid"])
        data = await _body(request)
        return JSONResponse({"frame": await run_in_threadpool(match.advance, data.get("step"))})

    async def recording_list(request: Request) -> JSONResponse:
        return JSONResponse({"recordings": library.listing()})

    async def recording(request: Request) -> JSONResponse:
        replay = await run_in_threadpool(library.replay, request.path_params["rid"])
        return JSONResponse(describe_replay(replay))

    async def recording_step(request: Request) -> JSONResponse:
        replay = await run_in_threadpool(library.replay, request.path_params["rid"])
        text = request.path_params["step"]
        if not text.isdigit():
            raise RequestError(400, f"a position is a number, got {text!r}")
        side = request.query_params.get("side") or None
        return JSONResponse(await run_in_threadpool(replay.frame, int(text), side))

    async def request_error(request: Request, exc: RequestError) -> JSONResponse:
        return _error(exc.status, exc.message)

    async def game_error(request: Request, exc: GameError) -> JSONResponse:
        return _error(400, str(exc))

    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, f"the server failed on this request: {type(exc).__name__}: {exc}")

    routes = [
        Route("/", index),
        Route("/api/games", games),
        Route("/api/play", play, methods=["POST"]),
        Route("/api/watch", watch, methods=["POST"]),
        Route("/api/session/{sid}", session),
        Route("/api/session/{sid}/act", act, methods=["POST"]),
        Route("/api/session/{sid}/next", advance, methods=["POST"]),
        Route("/api/recordings", recording_list),
        Route("/api/recordings/{rid}", recording),
        Route("/api/recordings/{rid}/{step}", recording_step),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            RequestError: request_error,
            GameError: game_error,
            HTTPException: http_error,
            Exception: server_error,
        },
    )
    app.state.sessions, app.state.library = sessions, library
    return app
