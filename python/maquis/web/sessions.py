"""The games the server holds, one per browser tab: a `Match` (a person against bundled agents, or
agents alone, watched) and the `Sessions` that find it by its id.

Everything a match sends is built from the view of its viewer's side (`WebGame.view`), never
from the full state: the other side's hidden information cannot reach the page.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from .games import WebGame
from .svg import scene_to_svg

__all__ = ["Match", "RequestError", "Sessions", "frame"]


class RequestError(Exception):
    """A request the server refuses: its HTTP status and a message for the page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


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
    `viewer` the seat whose view is shown."""

    def __init__(self, game: WebGame, settings: Mapping[str, Any], humans: tuple[str, ...],
                 agents: Mapping[str, str], viewer: str | None, seed: int | None) -> None:
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


class Sessions:
    """The matches, by an unguessable id; the oldest unused are dropped past `capacity`."""

    def __init__(self, capacity: int = 200) -> None:
        self.capacity = capacity
        self._matches: OrderedDict[str, Match] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, match: Match) -> str:
        sid = secrets.token_urlsafe(12)
        with self._lock:
            self._matches[sid] = match
            while len(self._matches) > self.capacity:
                self._matches.popitem(last=False)
        return sid

    def get(self, sid: str) -> Match:
        with self._lock:
            match = self._matches.get(sid)
            if match is None:
                raise RequestError(404, f"no game {sid!r} on this server (it ended or the server restarted): start a new one")
            self._matches.move_to_end(sid)
            return match

    def __len__(self) -> int:
        return len(self._matches)
