"""Recorded games the server may show: episode files (`play --record`) and golden playthroughs
(`tests/playthroughs/*.txt`), found once, at start, in the folders the server was given.

Requests name a recording by the id the listing gave it; no path from a request reaches the file
system. Only files whose real path lies inside a given folder are read: a link is followed only
to a file inside the same folder, and linked folders are not entered. A file over
`MAX_FILE_BYTES`, not UTF-8, or JSON nested deeper than `MAX_FILE_DEPTH` is skipped with a
warning (logger `maquis.web`), as is one that does not read as a recording; a file that is no
recording at all (other text, other JSON) is passed over silently. At most `MAX_FILES` are offered.

A recording is replayed through the engine (so every position is the engine's own) and told by the
game's narrator, as the page steps through it; one that does not replay is a 422 when asked for.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .games import GAMES, WebGame
from .limits import MAX_FILE_BYTES, MAX_FILE_DEPTH, MAX_FILES, depth_within, load_json
from .sessions import RequestError, frame

__all__ = ["Library", "NotARecording", "Recording", "Replay"]

log = logging.getLogger("maquis.web")


class NotARecording(ValueError):
    """A file that is no recording at all (other text, other JSON): passed over without a word."""


@dataclass(frozen=True)
class Recording:
    id: str
    title: str
    game: str
    kind: str  # "episode" or "playthrough"
    path: Path  # the real path, inside `root`
    root: Path  # the real path of the folder it was found in
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


def _checked(settings: Any, seed: Any, options: Any) -> tuple[dict[str, Any], int | None, dict[str, Any] | None]:
    """A recording's settings, seed and reset options, of the types the engines take; ValueError."""
    if not isinstance(settings, dict) or not all(isinstance(k, str) for k in settings):
        raise ValueError("the settings (`env`) must be a mapping by name")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64):
        raise ValueError(f"the seed must be an integer from 0 to 2**64 - 1, got {str(seed)[:40]}")
    if options is not None and (not isinstance(options, dict) or not all(isinstance(k, str) for k in options)):
        raise ValueError("the reset options must be a mapping by name")
    if not depth_within(options, MAX_FILE_DEPTH) or not depth_within(settings, MAX_FILE_DEPTH):
        raise ValueError(f"nested deeper than {MAX_FILE_DEPTH} levels")
    return settings, seed, options


def read_text(path: Path) -> str:
    """The UTF-8 text of a file of at most `MAX_FILE_BYTES` (no more is read); ValueError, OSError."""
    with open(path, "rb") as f:
        raw = f.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"over {MAX_FILE_BYTES} bytes: not the recording of one game")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"not UTF-8 text: {err}") from None


def parse(path: Path) -> tuple[str, Parsed]:
    """(kind, content) of a recording file; NotARecording when it is no recording at all,
    ValueError (or OSError) when it is a malformed one."""
    if path.suffix == ".json":
        data = load_json(read_text(path), MAX_FILE_DEPTH)
        game = _game_of_episode(data)
        if game is None:
            raise NotARecording("not a recorded episode")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ValueError("an episode's `actions` must be a list of action names")
        settings, seed, options = _checked(data.get("env") or {}, data.get("seed"), data.get("reset_options"))
        header = [f"episode: {path.name}", f"outcome: {str(data.get('outcome'))[:80]}"]
        return "episode", Parsed(game, settings, seed, options, list(actions), header)
    text = read_text(path)
    if not text.startswith("playthrough: "):
        raise NotARecording("not a playthrough")
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
    try:
        settings, seed, options = _checked(*game.read_playthrough(header))
    except (RecursionError, MemoryError):
        raise ValueError("a header nested too deep to read") from None
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
            except (ValueError, KeyError, TypeError, OverflowError) as err:
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


def _files(root: Path):
    """The `.json` and `.txt` files under the folder `root`, in order; linked folders not entered."""
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith((".json", ".txt")):
                yield Path(dirpath, name)


def _inside(path: Path, root: Path) -> Path | None:
    """The real path of `path` when it is a file inside `root` (a real path), else None."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):  # a broken link, a loop of links
        return None
    return real if real.is_relative_to(root) and real.is_file() else None


class Library:
    """The recordings in the folders given at start, by id; replays kept for the last few asked.
    `skipped` says which files were passed over, and why (each also logged as a warning)."""

    def __init__(self, folders: Iterable[str | Path] = (), keep: int = 8) -> None:
        self.folders = [Path(f) for f in folders]
        self.recordings: dict[str, Recording] = {}
        self.skipped: list[str] = []
        for folder in self.folders:
            if not folder.is_dir():
                raise ValueError(f"--recordings {folder}: not a folder")
        for k, folder in enumerate(self.folders):
            root = folder.resolve()
            for path in _files(root):
                if len(self.recordings) >= MAX_FILES:
                    self._skip(folder, path, f"past the {MAX_FILES} recordings offered at most")
                    break
                self._add(k, folder, root, path)
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._keep = keep
        self._lock = threading.Lock()

    def _skip(self, folder: Path, path: Path, why: str) -> None:
        name = f"{folder}/{path.relative_to(folder.resolve()).as_posix()}"
        self.skipped.append(f"{name}: {why}")
        log.warning("recording %s skipped: %s", name, why)

    def _add(self, k: int, folder: Path, root: Path, path: Path) -> None:
        real = _inside(path, root)
        if real is None:
            if path.is_symlink() or not path.exists():
                self._skip(folder, path, "a link to no file inside the folder")
            return
        try:
            kind, parsed = parse(real)
        except NotARecording:
            return  # other files share these folders
        except (OSError, ValueError, RecursionError, MemoryError) as err:
            self._skip(folder, path, str(err)[:200])
            return
        rel = path.relative_to(root).as_posix()
        rid = hashlib.sha256(f"{k}/{rel}".encode()).hexdigest()[:12]
        title = rel.rsplit(".", 1)[0]
        self.recordings[rid] = Recording(rid, title, parsed.game.name, kind, real, root, len(parsed.actions))

    def listing(self) -> list[dict[str, Any]]:
        return [r.describe() for r in sorted(self.recordings.values(), key=lambda r: (r.game, r.title))]

    def replay(self, rid: Any) -> Replay:
        recording = self.recordings.get(rid) if isinstance(rid, str) else None
        if recording is None:
            raise RequestError(404, f"no recording {str(rid)[:40]!r}: ask /api/recordings for the list")
        with self._lock:
            if rid in self._replays:
                self._replays.move_to_end(rid)
                return self._replays[rid]
        try:
            # Read again as it is now: still a file inside its folder (a path changed since start
            # into a link to elsewhere is not followed).
            if _inside(recording.path, recording.root) != recording.path:
                raise ValueError("it is no longer a file inside its folder")
            _, parsed = parse(recording.path)
            replay = Replay(recording, parsed)
        except Exception as err:  # noqa: BLE001 - whatever the file or the engine says, a refusal
            log.warning("recording %s does not replay: %s", recording.title, err)
            raise RequestError(422, f"recording {recording.title} cannot be replayed: {str(err)[:200]}") from None
        with self._lock:
            self._replays[rid] = replay
            while len(self._replays) > self._keep:
                self._replays.popitem(last=False)
        return replay


def describe_replay(replay: Replay) -> Mapping[str, Any]:
    return {**replay.recording.describe(), "length": len(replay.states), "header": replay.header,
            "seats": list(replay.game.seats)}
