"""What every game's `render` and `replay` verbs share: which game a saved file belongs to (so that
a save of another game is named, not misread), the flags, drawing one position (`--text` prints
the text view instead) and drawing every position of a recorded episode (PNG frames or a GIF).

A game's module gives its own parts: how a file becomes a state_dict, and its text and picture
renderers; a two-player game configures one `SnapshotVerbs`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .drawing import write_gif, write_png
from .cli import GAMES, add_output, add_side, add_text


# -- Which game a save belongs to -----------------------------------------------------------------

# A save's format tag, and the keys that only that game's `state_dict()` has (each game's
# declaration: `saves`).
_SAVE_FORMATS = {fmt: key for key, game in GAMES.items() for fmt in game.saves.state_formats}
_STATE_KEYS = {key: game.saves.state_keys for key, game in GAMES.items()}


def save_game(text: str) -> str | None:
    """The game (a key of `GAMES`) whose `save_state()` or `state_dict()` JSON `text` is, or None."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return None
    if not isinstance(data, dict):
        return None
    core = importlib.import_module("maquis._core")
    if "format" in data and hasattr(core, "save_game"):
        try:
            return core.save_game(text)
        except (ValueError, TypeError):
            return None
    fmt = data.get("format")
    if isinstance(fmt, str):
        return _SAVE_FORMATS.get(fmt)
    for game, keys in _STATE_KEYS.items():
        if all(k in data for k in keys):
            return game
    return None


# The format tag of each game's recorded episodes (`play --record`).
_EPISODE_FORMATS = {fmt: key for key, game in GAMES.items() for fmt in game.saves.episode_formats}


def _command(game: str, verb: str) -> str:
    return GAMES[game].command(verb)


def check_save_game(text: str, game: str) -> None:
    """Raises ValueError naming the game (and the command) a position or an episode belongs to when
    it is not a position of `game`."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return
    episode_of = _EPISODE_FORMATS.get(data.get("format")) if isinstance(data, dict) else None
    if isinstance(episode_of, str):
        raise ValueError(f"this is a recorded {GAMES[episode_of].title} episode, not a position: "
                         f"use `{_command(episode_of, 'replay')}`")
    found = save_game(text)
    if found is not None and found != game:
        raise ValueError(f"this is a {GAMES[found].title} save, not a {GAMES[game].title} one: "
                         f"use `{_command(found, 'render')}`")


def run_render(
    args: argparse.Namespace,
    game: str,
    load: Callable[[str], dict],
    text: Callable[[dict], str],
    rgb: Callable[[dict, int], Any],
    errors: tuple[type[BaseException], ...] = (),
) -> int:
    """Every game's `render`: the position `load(file text)` (its state_dict) printed as `text(sd)`
    with `--text`, else drawn by `rgb(sd, width)` into `--output` (default: the save's name with
    .png). Bad input (ValueError or one of `errors`) is exit status 2, with a line saying why."""
    prog = _command(game, "render")
    try:
        if args.width < 16:
            raise ValueError(f"--width must be at least 16, got {args.width}")
        try:
            content = Path(args.state).read_text()
        except OSError as err:
            raise ValueError(f"cannot read {args.state}: {err.strerror or err}") from None
        check_save_game(content, game)
        sd = load(content)
        if args.text:
            sys.stdout.write(text(sd))
            return 0
        out = args.output or str(Path(args.state).with_suffix(".png"))
        image = rgb(sd, args.width)
        try:
            write_png(out, image)
        except OSError as err:
            raise ValueError(f"cannot write {out}: {err.strerror or err}") from None
    except (ValueError, *errors) as err:
        print(f"{prog}: {args.state}: {err}", file=sys.stderr)
        return 2
    print(f"wrote {out} ({image.shape[1]}x{image.shape[0]})")
    return 0


def add_render_arguments(p: argparse.ArgumentParser) -> None:
    """The flags of every game's `render`."""
    p.add_argument("state", metavar="STATE.json", help="a position saved by env.save_state() (or a state_dict as JSON)")
    add_output(p, "OUT.png", "the PNG to write (default: STATE.png)")
    p.add_argument("--width", type=int, default=960, help="image width in pixels (default 960; the height is 3/4 of it)")
    add_text(p)


def add_side_render_arguments(p: argparse.ArgumentParser, sides: Sequence[str]) -> None:
    """The flags of a two-player game's `render`: those of every game, and `--side`."""
    add_render_arguments(p)
    add_side(p, sides, None, "draw only what this side sees (default: everything)")


def load_aec_position(text: str, game: str, make_env: Callable[[], Any]) -> dict:
    """The state_dict of a saved state or of a dumped state_dict (JSON text) of `game`; a save is
    loaded into the AEC env `make_env()`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not JSON: {err}") from None
    if isinstance(data, dict) and "phase" in data and _STATE_KEYS[game][0] in data:
        return data  # a state_dict
    env = make_env()
    env.reset(seed=0)
    env.load_state(text)
    return env.state_dict()


# -- replay: every position of a recorded episode ----------------------------------------------------


def load_episode_file(path_or_data: Any, fmt: str, version: int, what: str) -> dict:
    """A recorded episode (a path, or the already-parsed dict) checked for its format tag, its
    version and its `actions` list; ValueError says what is wrong."""
    if isinstance(path_or_data, Mapping):
        data = dict(path_or_data)
    else:
        try:
            data = json.loads(Path(path_or_data).read_text())
        except OSError as err:
            raise ValueError(f"cannot read {path_or_data}: {err.strerror or err}") from None
        except json.JSONDecodeError as err:
            raise ValueError(f"not JSON: {err}") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise ValueError(f'not a {what} episode (expected "format": "{fmt}")')
    if data.get("version") != version:
        raise ValueError(f"episode version {data.get('version')!r} is not supported (expected {version})")
    if not isinstance(data.get("actions"), list):
        raise ValueError("an episode needs an `actions` list")
    return data


def add_replay_arguments(p: argparse.ArgumentParser, recorder: str, sides: Sequence[str] | None = None) -> None:
    """The flags of every game's `replay`; `recorder` is the command that records episodes; a
    two-player game gives its `sides` for `--side`."""
    p.add_argument("episode", metavar="EPISODE.json", help=f"an episode written by `{recorder} --record`")
    add_output(
        p, "DIR|OUT.gif",
        "a directory for one PNG per step (step_000.png is the start), or a .gif file",
        required=True,
    )
    p.add_argument("--width", type=int, default=960, help="frame width in pixels (default 960)")
    p.add_argument("--duration", type=int, default=700, metavar="MS", help="GIF: milliseconds per frame (default 700)")
    if sides:
        add_side(p, sides, None, "draw only what this side sees (default: everything)")


def run_replay(
    args: argparse.Namespace,
    prog: str,
    load: Callable[[str], dict],
    states: Callable[[dict], Any],
    rgb: Callable[[dict, int], Any],
    errors: tuple[type[BaseException], ...] = (),
) -> int:
    """Draws every position of the episode `load(path)` (`states(episode)` yields their
    state_dicts) into a directory of PNGs or a GIF. Bad input (ValueError or one of `errors`) is
    exit status 2; an episode whose replay ends otherwise than recorded is 1."""
    out = args.output
    try:
        if args.width < 16:
            raise ValueError(f"--width must be at least 16, got {args.width}")
        episode = load(args.episode)
        gif = out.lower().endswith(".gif")
        frames, written, final = [], 0, None
        if not gif:
            try:
                os.makedirs(out, exist_ok=True)
            except OSError as err:
                raise ValueError(f"cannot create the directory {out}: {err.strerror or err}") from None
        digits = max(3, len(str(len(episode["actions"]))))
        for step, sd in enumerate(states(episode)):
            final = sd
            image = rgb(sd, args.width)
            if gif:
                frames.append(image)
            else:
                write_png(os.path.join(out, f"step_{step:0{digits}d}.png"), image)
                written += 1
        if gif:
            try:
                write_gif(out, frames, duration_ms=args.duration)
            except RuntimeError as err:
                raise ValueError(str(err)) from None
            written = len(frames)
    except (ValueError, *errors) as err:
        print(f"{prog}: {args.episode}: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"{prog}: cannot write {out}: {err.strerror or err}", file=sys.stderr)
        return 2
    outcome = final.get("outcome") if final else None
    recorded = episode.get("outcome")
    what = f"{out}" if gif else f"{written} PNG files in {out}"
    print(f"wrote {what}: {len(episode['actions'])} actions, outcome {outcome or 'none (unfinished)'}")
    if recorded is not None and recorded != outcome:
        print(f"{prog}: the recorded outcome was {recorded}, the replay gives {outcome}", file=sys.stderr)
        return 1
    return 0


def episode_data(fmt: str, version: int, seed: int | None, actions: list[str], outcome: str | None,
                 reset_options: Mapping | None = None) -> dict:
    """A recorded episode to write as JSON (`<game> play --record`): the reset's seed and options
    and both sides' decisions by name, so that the file replays exactly."""
    return {
        "format": fmt,
        "version": version,
        "seed": seed,
        "reset_options": dict(reset_options) if reset_options else None,
        "actions": list(actions),
        "outcome": outcome,
    }


def replay_aec_states(env: Any, data: Mapping[str, Any]) -> Iterator[dict]:
    """The state_dict of every position of a recorded episode of a two-player game, played on the
    AEC `env` (reset with the episode's seed and options): the start, then after each action.
    ValueError when an action is unknown or not legal where it is played."""
    env.reset(seed=data.get("seed"), options=data.get("reset_options") or None)
    yield env.state_dict()
    actions = data["actions"]
    for k, action in enumerate(actions, 1):
        sd = env.state_dict()
        if sd.get("outcome") is not None:
            raise ValueError(f"the game ended after {k - 1} actions, but the episode has {len(actions)}")
        try:
            index = env.action_from_str(str(action))
        except (ValueError, KeyError) as err:
            raise ValueError(f"action {k} ({action!r}) is unknown: {err}") from None
        if not env.observe(env.agent_selection)["action_mask"][index]:
            raise ValueError(
                f"action {k} ({action}) is not legal for {env.agent_selection} in phase {sd.get('phase')}: "
                "the episode does not replay with this engine and these options"
            )
        env.step(index)
        yield env.state_dict()


# -- A two-player game's `render` and `replay`, configured once --------------------------------------


@dataclass(frozen=True)
class SnapshotVerbs:
    """The `render` and `replay` verbs of a two-player game (one AEC env, two sides), configured
    once in its `<game>.snapshot` module as `VERBS` (`cli.GAMES` names its methods `VERBS.run_render` …)."""

    game: str  # a key of `GAMES`
    package: str  # the game's package, whose `raw_env` loads saves and replays episodes
    episode_format: str
    episode_version: int
    sides: tuple[str, ...]
    render_ansi: Callable[[dict], str]
    render_rgb: Callable[..., Any]
    side_view: Callable[[dict, str], dict]
    # The side whose view alone a saved position holds (`play`'s `save`), or None for a full state.
    viewer_of: Callable[[dict], str | None]
    # Bad input besides ValueError: what a malformed state_dict raises in the game's renderers.
    errors: tuple[type[BaseException], ...]
    side_article: str = ""  # "the " where a side reads as "the german"
    # Whether `render_rgb` takes `side=` itself rather than being given `side_view(sd, side)`.
    rgb_takes_side: bool = False

    def _raw_env(self) -> Any:
        # Imported on use, so that configuring the verbs imports nothing of the game.
        return importlib.import_module(self.package).raw_env()

    def load_position(self, text: str) -> dict:
        """The state_dict of a saved state or of a dumped state_dict (JSON text)."""
        return load_aec_position(text, self.game, self._raw_env)

    def add_render_arguments(self, p: argparse.ArgumentParser) -> None:
        add_side_render_arguments(p, self.sides)

    def _side_of(self, sd: dict, side: str | None) -> dict:
        viewer = self.viewer_of(sd)
        if side and viewer and side != viewer:
            raise ValueError(
                f"this position holds only what {self.side_article}{viewer} sees: draw it with --side {viewer}"
            )
        return self.side_view(sd, side) if side else sd

    def run_render(self, args: argparse.Namespace) -> int:
        return run_render(
            args, self.game, lambda text: self._side_of(self.load_position(text), args.side), self.render_ansi,
            lambda sd, width: self.render_rgb(sd, width=width), self.errors,
        )

    def episode(self, seed: int | None, actions: list[str], outcome: str | None,
                reset_options: Mapping | None = None) -> dict:
        """An episode to write as JSON (`maquis <game> play --record`)."""
        return episode_data(self.episode_format, self.episode_version, seed, actions, outcome, reset_options)

    def load_episode(self, path: str | Path) -> dict:
        """Reads and checks an episode file; ValueError says what is wrong."""
        return load_episode_file(path, self.episode_format, self.episode_version, GAMES[self.game].title)

    def replay_states(self, data: Mapping[str, Any]) -> Iterator[dict]:
        """The state_dict of every position of an episode: the start, then after each action.
        ValueError when an action is unknown or not legal where it is played."""
        return replay_aec_states(self._raw_env(), data)

    def add_replay_arguments(self, p: argparse.ArgumentParser) -> None:
        add_replay_arguments(p, _command(self.game, "play"), self.sides)

    def _frame(self, sd: dict, width: int, side: str | None) -> Any:
        if self.rgb_takes_side:
            return self.render_rgb(sd, width=width, side=side)
        return self.render_rgb(self.side_view(sd, side) if side else sd, width=width)

    def run_replay(self, args: argparse.Namespace) -> int:
        return run_replay(
            args, _command(self.game, "replay"), self.load_episode, self.replay_states,
            lambda sd, width: self._frame(sd, width, args.side), self.errors,
        )
