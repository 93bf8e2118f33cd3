"""The games the server holds, one per browser tab: a `Match` (a person against bundled agents, or
agents alone, watched) and the `Sessions` that find it by its id, for the browser that started it.

Everything a match sends is built from the view of its viewer (`WebGame.view`: a side, `SPECTATOR`,
or everyone but the deck's order for agents alone on a deal nobody can know), never from the full
state: the other side's hidden information cannot reach the page.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .games import WebGame
from .limits import CAPACITY, IDLE_SECONDS, PER_CLIENT
from .svg import scene_to_svg

__all__ = ["Match", "RequestError", "Sessions", "frame"]


class RequestError(Exception):
    """A request the server refuses: its HTTP status and a message for the page."""

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, dict(headers or {})


def frame(game: WebGame, view: Mapping[str, Any], seat: str | None, step: int, legal: list[tuple[int, str]],
          action: str | None = None, narration: list[str] | None = None) -> dict[str, Any]:
    """One position as the page shows it: the board (SVG) and the words, from a side's view."""
    return {
        "step": step,
        "action": action,
        "narration": list(narration or ()),
        "status": game.status(view),
        "svg": scene_to_svg(game.scene(view, seat), [i for i, _ in legal]),
        "legal": [{"index": i, "name": n} for i, n in legal],
        "to_move": _to_move(view),
        "outcome": view.get("outcome"),
        "view": view,
    }


def _to_move(view: Mapping[str, Any]) -> str | None:
    if view.get("outcome") is not None:
        return None
    return view.get("to_move", "player")


class Match:
    """A game held for one tab. `humans` are the seats the person plays (none: agents alone);
    `viewer` whose view is shown: a seat, `SPECTATOR` (what is public) or None (everything the
    game shows anyone: only for agents alone)."""

    def __init__(self, game: WebGame, settings: Mapping[str, Any], humans: tuple[str, ...],
                 agents: Mapping[str, str], viewer: str | None, seed: int | None) -> None:
        if viewer is None and humans:
            raise ValueError("a game a person plays is seen from a side")
        self.game, self.humans, self.viewer = game, humans, viewer
        self.table = game.start(settings, seed)
        # The agents' seeds follow the game's (a seeded game replays alike), in the agents' range.
        bot_seed = None if seed is None else (seed * 7919 + 17) % 2**31
        self.agents = {seat: game.make_agent(a, None if bot_seed is None else bot_seed + k)
                       for k, (seat, a) in enumerate(agents.items())}
        self.labels = {"settings": dict(settings), "humans": list(humans), "agents": dict(agents)}
        self.step = 0
        self.lock = threading.Lock()
        self.last: dict[str, Any] | None = None

    def view(self) -> dict[str, Any]:
        return self.game.view(self.table.state(), self.viewer)

    def legal_for_viewer(self) -> list[tuple[int, str]]:
        """The legal actions, when the person is to decide (never the agents' choices)."""
        mover = self.table.to_move()
        if mover is None or mover not in self.humans:
            return []
        return [(i, self.table.name(i)) for i in self.table.legal()]

    def current(self) -> dict[str, Any]:
        # Waits for a decision in progress (the engine is not read while it steps).
        if not self.lock.acquire(timeout=60):
            raise RequestError(409, "this game is busy with another request: try again")
        try:
            out = frame(self.game, self.view(), self.viewer, self.step, self.legal_for_viewer())
            if self.last:
                out["action"], out["narration"] = self.last["action"], self.last["narration"]
            return self.describe(out)
        finally:
            self.lock.release()

    def describe(self, out: dict[str, Any]) -> dict[str, Any]:
        out["game"], out["viewer"] = self.game.name, self.viewer
        out["humans"], out["agents"] = list(self.humans), self.labels["agents"]
        out["settings"] = self.labels["settings"]
        return out

    def _decide(self, index: int) -> dict[str, Any]:
        """Play `index` for whoever is to move; the frame after it."""
        mover = self.table.to_move() or ""
        name = self.table.name(index)
        before = self.view()
        self.table.step(index)
        self.step += 1
        after = self.view()
        said = self.game.action_text(mover, name, self.viewer)
        words = self.game.narrate(before, after, mover, name, self.viewer)
        self.last = {"action": said, "narration": words}
        legal = self.legal_for_viewer()
        return frame(self.game, after, self.viewer, self.step, legal, said, words)

    def _agents_play(self, limit: int = 10_000) -> list[dict[str, Any]]:
        """The agents decide until the person is to move or the game ends: a frame per decision."""
        frames = []
        while len(frames) < limit:
            mover = self.table.to_move()
            if mover is None or mover in self.humans:
                break
            frames.append(self._decide(self.table.agent_action(self.agents[mover])))
        return frames

    def start(self) -> list[dict[str, Any]]:
        """The agents' decisions before the person's first (the German allocates first)."""
        with self.lock:
            return self._agents_play() if self.humans else []

    def play(self, action: Any, at_step: Any) -> list[dict[str, Any]]:
        """The person's decision `action` (an index) made at decision `at_step`, then the agents'
        replies: one frame per decision, the person's first."""
        if isinstance(at_step, bool) or not isinstance(at_step, int):
            raise RequestError(400, f"`step` must be the decision number the page shows (an integer), got {at_step!r}")
        if isinstance(action, bool) or not isinstance(action, int):
            raise RequestError(400, f"`action` must be an action index (an integer), got {action!r}")
        if not self.lock.acquire(blocking=False):
            raise RequestError(409, "this game is busy with another request: wait for it and try again")
        try:
            if at_step != self.step:
                raise RequestError(409, f"stale request: the game is at decision {self.step}, the page at "
                                        f"{at_step} (reload the game)")
            mover = self.table.to_move()
            if mover is None:
                raise RequestError(409, "the game is over")
            if mover not in self.humans:
                raise RequestError(409, f"it is not your turn: {mover} is to decide")
            legal = self.table.legal()
            if action not in legal:
                raise RequestError(422, f"action {action} is not legal now (legal: {', '.join(map(str, legal))})")
            frames = [self._decide(action)]
            frames += self._agents_play()
            return [self.describe(f) for f in frames]
        finally:
            self.lock.release()

    def advance(self, at_step: Any) -> dict[str, Any]:
        """One agent decision of a watched game (no person plays)."""
        if isinstance(at_step, bool) or not isinstance(at_step, int):
            raise RequestError(400, f"`step` must be the decision number the page shows (an integer), got {at_step!r}")
        if not self.lock.acquire(blocking=False):
            raise RequestError(409, "this game is busy with another request: wait for it and try again")
        try:
            if at_step != self.step:
                raise RequestError(409, f"stale request: the game is at decision {self.step}, the page at {at_step}")
            mover = self.table.to_move()
            if mover is None:
                raise RequestError(409, "the game is over")
            if mover in self.humans:
                raise RequestError(409, f"{mover} is played by a person here: send its action")
            return self.describe(self._agents_play(limit=1)[0])
        finally:
            self.lock.release()


@dataclass
class _Held:
    match: Match
    client: str
    used: float  # the clock when it was last asked for


class Sessions:
    """The matches, by an unguessable id, each held for the client (browser) that started it.

    A client holds `per_client` games at most: starting one more drops its own least recently
    used game, never another client's. All clients together hold `capacity` games at most: when
    full, the game unused longest is dropped if it has been idle `idle_s` seconds, else the new
    game is refused (503) until one is. A game is found only by the client holding it."""

    def __init__(self, capacity: int = CAPACITY, per_client: int = PER_CLIENT, idle_s: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if capacity < 1 or per_client < 1:
            raise ValueError(f"capacity and per_client must be at least 1, got {capacity} and {per_client}")
        self.capacity, self.per_client, self.idle_s = capacity, per_client, idle_s
        self.clock = clock
        self._held: OrderedDict[str, _Held] = OrderedDict()  # least recently used first
        self._by_client: dict[str, OrderedDict[str, None]] = {}  # the same order, per client
        self._lock = threading.Lock()

    def _drop(self, sid: str) -> None:
        held = self._held.pop(sid)
        own = self._by_client[held.client]
        del own[sid]
        if not own:
            del self._by_client[held.client]

    def _room(self, client: str, take: bool) -> None:
        """Make room for one more game of `client` (when `take`), or only check that there is."""
        own = self._by_client.get(client) or {}
        if len(own) >= self.per_client:
            if take:
                while len(self._by_client.get(client) or {}) >= self.per_client:
                    self._drop(next(iter(self._by_client[client])))
            return
        if len(self._held) < self.capacity:
            return
        sid, oldest = next(iter(self._held.items()))
        idle = self.clock() - oldest.used
        if idle < self.idle_s:
            wait = max(1, int(self.idle_s - idle) + 1)
            raise RequestError(503, f"the server holds its most games ({self.capacity}), all in use: "
                                    f"try again later", headers={"Retry-After": str(wait)})
        if take:
            self._drop(sid)

    def check_room(self, client: str) -> None:
        """RequestError (503) when a game of `client` would be refused now (asked before the work
        of starting one)."""
        with self._lock:
            self._room(client, take=False)

    def add(self, match: Match, client: str) -> str:
        sid = secrets.token_urlsafe(12)
        with self._lock:
            self._room(client, take=True)
            self._held[sid] = _Held(match, client, self.clock())
            self._by_client.setdefault(client, OrderedDict())[sid] = None
        return sid

    def get(self, sid: Any, client: str | None = None) -> Match:
        """The match `sid` of `client` (404 when it holds none by that id); `client` None: of
        anyone (the server's own look-up, never a request's)."""
        with self._lock:
            held = self._held.get(sid) if isinstance(sid, str) else None
            if held is None or (client is not None and held.client != client):
                raise RequestError(404, f"no game {sid!r} on this server for this browser (it ended, was "
                                        "dropped or the server restarted): start a new one")
            held.used = self.clock()
            self._held.move_to_end(sid)
            self._by_client[held.client].move_to_end(sid)
            return held.match

    def of_client(self, client: str) -> list[str]:
        """The ids of the games `client` holds, least recently used first."""
        with self._lock:
            return list(self._by_client.get(client) or ())

    def __len__(self) -> int:
        return len(self._held)
