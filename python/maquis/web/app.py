"""The web app (Starlette): the page, its static files and the JSON API.

    GET  /api/games                          the games, their seats, agents and settings
    POST /api/play    {game, side, opponent, settings, seed}   a person plays a side: {session, frames, current}
    POST /api/watch   {game, agents, settings, seed, side}     agents play, watched: {session, current}
                      (no side: every hand on a fresh deal, only what is public on a seeded one)
    GET  /api/session/{id}                   the position now (as the session's side sees it)
    POST /api/session/{id}/act  {action, step}   the person's decision; the agents' replies, a frame each
    POST /api/session/{id}/next {step}           one agent decision of a watched game
    GET  /api/recordings                     the recordings found at start, by id
    GET  /api/recordings/{id}                one recording: its length and header
    GET  /api/recordings/{id}/{step}?side=S  one position of it

A malformed, stale or illegal request gets a 4xx answer `{"error": "<what was wrong>"}`; a new game
when the server is full of games in use, a 503 with `Retry-After`.

Each browser is a client, known by the cookie `maquis_client` (a random token the server sets,
HttpOnly, SameSite=Lax): a game is found only by the client that started it, and a client holds a
bounded number of games (`Sessions`). The bounds are in `limits`.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request, cookie_parser
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .games import GAMES, SPECTATOR, GameError, game
from .limits import CAPACITY, IDLE_SECONDS, MAX_BODY, MAX_BODY_DEPTH, MAX_STEP_DIGITS, PER_CLIENT, load_json
from .recordings import Library, describe_replay
from .sessions import Match, RequestError, Sessions

__all__ = ["COOKIE", "STATIC", "ClientCookie", "create_app"]

STATIC = Path(__file__).parent / "static"
COOKIE = "maquis_client"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_STEP = re.compile(rf"[0-9]{{1,{MAX_STEP_DIGITS}}}")
log = logging.getLogger("maquis.web")


class ClientCookie:
    """ASGI middleware: the client (browser) a request comes from, by the cookie `COOKIE`, put in
    `scope["maquis.client"]`; a request without a well-formed one gets a new random token, set on
    its response (HttpOnly, SameSite=Lax, for this server's paths)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = None
        for name, value in scope.get("headers") or ():
            if name == b"cookie":
                given = cookie_parser(value.decode("latin-1")).get(COOKIE)
                if given and _TOKEN.fullmatch(given):
                    token = given
        fresh = token is None
        if fresh:
            token = secrets.token_urlsafe(24)
        scope["maquis.client"] = token
        cookie = f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax".encode("latin-1")

        async def send_with_cookie(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _client(request: Request) -> str:
    return request.scope["maquis.client"]


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object (`{}` for an empty body); 413 past `MAX_BODY` bytes (read no
    further), 400 when it is not a JSON object or nests deeper than `MAX_BODY_DEPTH`."""
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and (len(length) > 12 or int(length) > MAX_BODY):
        raise RequestError(413, f"the request body is over {MAX_BODY} bytes")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise RequestError(413, f"the request body is over {MAX_BODY} bytes")
    if not raw.strip():
        return {}
    try:
        data = load_json(bytes(raw), MAX_BODY_DEPTH)
    except ValueError as err:
        raise RequestError(400, f"the request body is not a JSON object the server reads: {err}") from None
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
    side, seed = data.get("side"), _seed(data.get("seed"))
    if side is not None:
        viewer = g.check_seat(side)
    elif len(g.seats) == 1:
        viewer = g.seats[0]
    else:
        # Every hand and the allocation only on a deal the server drew and never tells: a seeded
        # deal is any player's who knows the seed, so a seeded game is watched as a spectator.
        viewer = None if seed is None else SPECTATOR
    return Match(g, settings, (), chosen, viewer, seed)


def create_app(recordings: Iterable[str | Path] = (), capacity: int = CAPACITY, per_client: int = PER_CLIENT,
               idle_s: float = IDLE_SECONDS) -> Starlette:
    """The app, serving recordings from the folders `recordings` only, holding up to `capacity`
    games in all and `per_client` for one client (its least recently used is dropped beyond);
    when full, another client's game is dropped only once idle `idle_s` seconds (`Sessions`)."""
    sessions = Sessions(capacity, per_client, idle_s)
    library = Library(recordings)

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def games(request: Request) -> JSONResponse:
        return JSONResponse({"games": [g.describe() for g in GAMES.values()]})

    async def play(request: Request) -> JSONResponse:
        data, client = await _body(request), _client(request)

        def start() -> dict[str, Any]:
            sessions.check_room(client)
            match = _new_play(data)
            frames = [match.describe(f) for f in match.start()]
            return {"session": sessions.add(match, client), "frames": frames, "current": match.current()}

        return JSONResponse(await run_in_threadpool(start))

    async def watch(request: Request) -> JSONResponse:
        data, client = await _body(request), _client(request)

        def start() -> dict[str, Any]:
            sessions.check_room(client)
            match = _new_watch(data)
            return {"session": sessions.add(match, client), "current": match.current()}

        return JSONResponse(await run_in_threadpool(start))

    async def session(request: Request) -> JSONResponse:
        match = sessions.get(request.path_params["sid"], _client(request))
        return JSONResponse(await run_in_threadpool(match.current))

    async def act(request: Request) -> JSONResponse:
        match = sessions.get(request.path_params["sid"], _client(request))
        data = await _body(request)
        frames = await run_in_threadpool(match.play, data.get("action"), data.get("step"))
        return JSONResponse({"frames": frames})

    async def advance(request: Request) -> JSONResponse:
        match = sessions.get(request.path_params["sid"], _client(request))
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
        if not _STEP.fullmatch(text):  # ASCII digits only: str.isdigit() holds for "²"
            raise RequestError(400, f"a position is a number (0 to {10**MAX_STEP_DIGITS - 1}), got {text[:40]!r}")
        side = request.query_params.get("side") or None
        return JSONResponse(await run_in_threadpool(replay.frame, int(text), side))

    async def request_error(request: Request, exc: RequestError) -> JSONResponse:
        return _error(exc.status, exc.message, exc.headers)

    async def game_error(request: Request, exc: GameError) -> JSONResponse:
        return _error(400, str(exc))

    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        # The details go to the log, not to the page (they may name the server's files).
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return _error(500, f"the server failed on this request ({type(exc).__name__})")

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
        middleware=[Middleware(ClientCookie)],
        exception_handlers={
            RequestError: request_error,
            GameError: game_error,
            HTTPException: http_error,
            Exception: server_error,
        },
    )
    app.state.sessions, app.state.library = sessions, library
    return app
