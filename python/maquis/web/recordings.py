"""Recorded games the server may show: episode files (`play --record`) and golden playthroughs
(`tests/playthroughs/*.txt`), found once, at start, in the folders the server was given.

Requests name a recording by the id the listing gave it; no path from a request reaches the file
system. A recording is replayed through the engine (so every position is the engine's own) and told
by the game's narrator, as the page steps through it.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .games import GAMES, WebGame
from .sessions import RequestError, frame

__all__ = ["Library", "Recording", "Replay"]

MAX_BYTES = 4_000_000  # larger files are not recordings of one game


@dataclass(frozen=True)
class Recording:
    id: str
    title: str
    game: str
    kind: str  # "episode" or "playthrough"
    path: Path
    decisions: int

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "game": self.game, "kind": self.kind, "decisions": self.decisions}


@dataclass
class Parsed:
    game: WebGame
    settings: dict[str, Any]
    seed: int | None
    options: dict[str, Any] | None
    actions: list[str]
    header: list[str]


def _game_of_episode(data: Any) -> WebGame | None:
    fmt = data.get("format") if isinstance(data, dict) else None
    return next((g for g in GAMES.values() if fmt in g.episode_formats), None)


def parse(path: Path) -> tuple[str, Parsed]:
    """(kind, content) of a recording file; ValueError when it is none."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"not JSON: {err}") from None
        game = _game_of_episode(data)
        if game is None or not isinstance(data.get("actions"), list):
            raise ValueError("not a recorded episode")
        settings = data.get("env") or {}
        if not isinstance(settings, dict):
            raise ValueError("an episode's `env` must be a mapping")
        header = [f"episode: {path.name}", f"outcome: {data.get('outcome')}"]
        return "episode", Parsed(game, settings, data.get("seed"), data.get("reset_options"),
                                 [str(a) for a in data["actions"]], header)
    return "playthrough", parse_playthrough(text)


def parse_playthrough(text: str) -> Parsed:
    """The game, settings, reset and actions of a golden playthrough's text."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("playthrough: "):
        raise ValueError("not a playthrough")
    header: dict[str, str] = {}
    head_lines = []
    for line in lines:
        if not line.strip():
            break
        key, _, value = line.partition(": ")
        header[key] = value
        head_lines.append(line)
    game = next((g for g in GAMES.values() if any(header.get("game", "").startswith(p) for p in g.playthrough_games)), None)
    if game is None:
        raise ValueError(f"a playthrough of an unknown game {header.get('game')!r}")
    settings, seed, options = game.read_playthrough(header)
    actions = []
    for line in lines:
        if line.startswith("action: "):
            name = line[len("action: "):]
            if len(game.seats) > 1:  # `side: name`
                name = name.partition(": ")[2]
            actions.append(name)
    return Parsed(game, settings, seed, options, actions, head_lines)


class Replay:
    """A recording played through the engine: the full state before and after every decision."""

    def __init__(self, recording: Recording, parsed: Parsed) -> None:
        self.recording, self.game = recording, parsed.game
        self.header = parsed.header
        table = self.game.start(parsed.settings, parsed.seed, parsed.options)
        self.states = [table.state()]
        self.moves: list[tuple[str, str]] = []  # (who decided, the action's name)
        for k, name in enumerate(parsed.actions, 1):
            mover = table.to_move()
            if mover is None:
                raise ValueError(f"the game ended after {k - 1} decisions, the recording has {len(parsed.actions)}")
            try:
                index = table.index(name)
            except (ValueError, KeyError) as err:
                raise ValueError(f"decision {k} ({name!r}) is not an action: {err}") from None
            if index not in table.legal():
                raise ValueError(f"decision {k} ({name}) is not legal there: the recording does not replay")
            table.step(index)
            self.moves.append((mover, name))
            self.states.append(table.state())

    def frame(self, step: Any, seat: str | None) -> dict[str, Any]:
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < len(self.states):
            raise RequestError(404, f"no position {step!r} in this recording: it has 0 to {len(self.states) - 1}")
        if seat is not None and seat not in self.game.seats:
            raise RequestError(400, f"side must be one of {', '.join(self.game.seats)}, got {seat!r}")
        view = self.game.view(self.states[step], seat)
        action, words = None, []
        if step > 0:
            mover, name = self.moves[step - 1]
            before = self.game.view(self.states[step - 1], seat)
            action = self.game.action_text(mover, name, seat)
            words = self.game.narrate(before, view, mover, name, seat)
        out = frame(self.game, view, seat, step, [], action, words)
        out.update(recording=self.recording.id, length=len(self.states), game=self.game.name, viewer=seat)
        return out


class Library:
    """The recordings in the folders given at start, by id; replays kept for the last few asked."""

    def __init__(self, folders: Iterable[str | Path] = (), keep: int = 8) -> None:
        self.folders = [Path(f) for f in folders]
        self.recordings: dict[str, Recording] = {}
        self.skipped: list[str] = []
        for k, folder in enumerate(self.folders):
            if not folder.is_dir():
                raise ValueError(f"--recordings {folder}: not a folder")
            for path in sorted(p for p in folder.rglob("*") if p.suffix in (".json", ".txt") and p.is_file()):
                self._add(k, folder, path)
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._keep = keep
        self._lock = threading.Lock()

    def _add(self, k: int, folder: Path, path: Path) -> None:
        try:
            if path.stat().st_size > MAX_BYTES:
                return
            kind, parsed = parse(path)
        except (OSError, UnicodeDecodeError, ValueError):
            return  # not a recording: other files share these folders
        rel = path.relative_to(folder).as_posix()
        rid = hashlib.sha256(f"{k}/{rel}".encode()).hexdigest()[:12]
        title = rel.rsplit(".", 1)[0]
        self.recordings[rid] = Recording(rid, title, parsed.game.name, kind, path, len(parsed.actions))

    def listing(self) -> list[dict[str, Any]]:
        return [r.describe() for r in sorted(self.recordings.values(), key=lambda r: (r.game, r.title))]

    def replay(self, rid: Any) -> Replay:
        recording = self.recordings.get(rid) if isinstance(rid, str) else None
        if recording is None:
            raise RequestError(404, f"no recording {rid!r}: ask /api/recordings for the list")
        with self._lock:
            if rid in self._replays:
                self._replays.move_to_end(rid)
                return self._replays[rid]
        try:
            _, parsed = parse(recording.path)
            replay = Replay(recording, parsed)
        except (OSError, UnicodeDecodeError, ValueError, TypeError) as err:
            raise RequestError(422, f"recording {recording.title} cannot be replayed: {err}") from None
        with self._lock:
            self._replays[rid] = replay
            while len(self._replays) > self._keep:
                self._replays.popitem(last=False)
        return replay


def describe_replay(replay: Replay) -> Mapping[str, Any]:
    return {**replay.recording.describe(), "length": len(replay.states), "header": replay.header,
            "seats": list(replay.game.seats)}
