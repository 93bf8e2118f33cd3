"""See the game: play it in the terminal, draw a saved position, replay a recorded episode.

The command-line subcommands ``maquis play``, ``maquis render`` and ``maquis replay`` (wired up by
``maquis.cli``):

- ``maquis play`` - a human plays a whole game: each turn the board is redrawn, the legal actions are
  listed with numbers, and the player answers with a number, an action name or a unique prefix of
  one (also ``help``, ``undo``, ``board``, ``save FILE``, ``quit``). ``--record FILE`` writes the
  episode (seed, options, actions by name) as JSON for ``maquis replay``.
- ``maquis render STATE.json -o out.png`` - a PNG of a position saved by ``env.save_state()`` (a
  plain ``state_dict()`` dumped as JSON works too).
- ``maquis replay EPISODE.json -o DIR`` (one PNG per step) or ``-o out.gif`` (needs Pillow) -
  re-runs a recorded episode and draws every position along the way.

Episode files (``format: "maquis-episode"``, ``version: 1``)::

    {"format": "maquis-episode", "version": 1,
     "env": {"difficulty": "normal", "mission_pool": "second_edition",
             "missions": ["sabotage", "aid_the_spy"]},
     "seed": 1234, "reset_options": null,
     "actions": ["place:grocer", "act:grocer:food", ...], "outcome": "win"}

``env`` holds keyword arguments of ``MaquisEnv``, ``seed`` and ``reset_options`` those of
``reset()``; the same file therefore replays exactly.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from .render import render_ansi, render_rgb, write_gif, write_png

__all__ = [
    "EPISODE_FORMAT",
    "EPISODE_VERSION",
    "add_play_arguments",
    "add_render_arguments",
    "add_replay_arguments",
    "describe_changes",
    "load_episode",
    "replay_states",
    "run_play",
    "run_render",
    "run_replay",
]

EPISODE_FORMAT = "maquis-episode"
EPISODE_VERSION = 1

DIFFICULTIES = ("very_easy", "easy", "normal", "tricky", "hard", "very_hard")
MISSION_POOLS = ("second_edition", "first_edition", "pnp_2013")
DEALS = ("uniform", "grouped_2013", "grouped_2019")
RESOURCES = ("intel", "food", "medicine", "money", "weapon", "explosive", "poison", "fake_id")

HELP_TEXT = """\
Answer with one of:
  a number          the action with that number in the list
  an action name    e.g. place:grocer, act:fence:weapon, skip:doctor, accept
  a unique prefix   e.g. act:radio_a:air (the location part alone works too: grocer, fence:weapon)
  help  (or ?)      this text
  board             draw the board again
  undo              take back your last decision
  save FILE         write the current position (JSON, for `maquis render` or env.load_state)
  quit  (or q)      stop the game (end of input quits too)
Each decision is one step: patrols, route checks and the end of the day happen by themselves.
Rules: placement - put every available worker on a free location (a patrol follows each worker);
action - activate each placed worker (perform an action or skip), then it must get home without
crossing a patrol, or it is arrested."""


class UsageError(Exception):
    """A problem with the command's input, reported as one line and exit status 1 or 2."""


# ---------------------------------------------------------------------------------------------
# Environment helpers
# ---------------------------------------------------------------------------------------------


def _env_class():
    from . import MaquisEnv  # imported late: `maquis render --help` works even without the extension

    return MaquisEnv


def _make_env(env_kwargs: Mapping, **extra):
    try:
        return _env_class()(**{**dict(env_kwargs), **extra})
    except (TypeError, ValueError) as err:
        raise UsageError(f"cannot create the environment with {dict(env_kwargs)}: {err}") from err


def _reset(env, seed, options):
    try:
        return env.reset(seed=seed, options=options or None)
    except (TypeError, ValueError) as err:
        raise UsageError(f"cannot start the game (seed {seed}, options {options}): {err}") from err


def _legal_names(env) -> list[tuple[int, str]]:
    return [(int(i), env.action_to_str(int(i))) for i in env.legal_actions()]


def _outcome_text(outcome) -> str:
    return {"win": "WIN", "major_win": "MAJOR WIN", "draw": "DRAW", "loss": "LOSS"}.get(outcome, str(outcome))


# ---------------------------------------------------------------------------------------------
# What changed in a step, in words
# ---------------------------------------------------------------------------------------------


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe_changes(before: Mapping, after: Mapping, action: str | None = None) -> list[str]:
    """Short sentences for what one step (the decision ``action``, a name) changed: patrols,
    arrests, resources, tracks, missions, the end of the day.

    Reads two ``state_dict()`` views; used by ``maquis play`` after every decision.
    """
    lines: list[str] = []
    b_board, a_board = before.get("board", {}), after.get("board", {})

    patrols = []
    for loc, cell in a_board.items():
        pawn = (cell or {}).get("pawn")
        if pawn in ("milice", "soldier") and (b_board.get(loc) or {}).get("pawn") != pawn:
            patrols.append(f"{pawn} on {loc}")
    if patrols:
        lines.append("patrols placed: " + ", ".join(patrols))
    shot = [
        loc
        for loc, cell in b_board.items()
        if (cell or {}).get("pawn") == "milice"
        and not (a_board.get(loc) or {}).get("pawn")
        and after.get("day") == before.get("day")
    ]
    if shot:
        lines.append("Milice shot on " + ", ".join(shot))

    bw, aw = before.get("workers", {}), after.get("workers", {})
    gone = aw.get("gone", 0) - bw.get("gone", 0)
    # P3: a patrol that finds only workers on its card's locations arrests one and takes its place.
    raided = [
        loc
        for loc, cell in a_board.items()
        if (cell or {}).get("pawn") in ("milice", "soldier")
        and (b_board.get(loc) or {}).get("pawn") == "worker"
    ]
    for loc in raided:
        lines.append(f"a patrol arrested the worker on {loc}")
    # F7: the activated worker found no route home (or a mission removed it).
    verb, _, rest = (action or "").partition(":")
    home_from = (
        rest.split(":")[0] if verb in ("act", "skip") else after.get("pending") or before.get("pending")
    )
    if gone > len(raided):
        lost = gone - len(raided)
        if home_from and lost == 1:
            lines.append(f"the worker from {home_from} did not get home: arrested (or removed by a mission)")
        else:
            lines.append(f"{_plural(lost, 'worker')} lost (arrested or removed by a mission)")
    if gone > 0:
        lines.append(f"{aw.get('gone', 0)} of your workers gone in all")
    recruited = bw.get("recruitable", 0) - aw.get("recruitable", 0)
    if recruited > 0:
        lines.append(f"{_plural(recruited, 'worker')} recruited")

    bh, ah = before.get("hand", {}), after.get("hand", {})
    delta = [(r, ah.get(r, 0) - bh.get(r, 0)) for r in RESOURCES]
    gains = ", ".join(f"+{d} {r}" for r, d in delta if d > 0)
    losses = ", ".join(f"{d} {r}" for r, d in delta if d < 0)
    if gains or losses:
        lines.append("hand: " + ", ".join(x for x in (gains, losses) if x))

    for loc, cell in a_board.items():
        cell, old = cell or {}, b_board.get(loc) or {}
        drop = {r: n for r, n in (cell.get("airdrop") or {}).items() if n}
        if drop and drop != {r: n for r, n in (old.get("airdrop") or {}).items() if n}:
            lines.append(f"airdrop on {loc}: " + ", ".join(f"{n} {r}" for r, n in drop.items()))
        if cell.get("tile") and cell.get("tile") != old.get("tile"):
            lines.append(f"built {cell['tile']} on {loc}")
        if old.get("aa_gun") and not cell.get("aa_gun"):
            lines.append(f"AA gun on {loc} destroyed")
        if cell.get("tagged") and not old.get("tagged"):
            lines.append(f"{loc} tagged")
        if cell.get("visited") and not old.get("visited"):
            lines.append(f"{loc} visited")

    for key, name in (("morale", "morale"), ("soldiers", "soldier track")):
        if before.get(key) != after.get(key):
            lines.append(f"{name} {before.get(key)} -> {after.get(key)}")

    b_missions = {m.get("slot"): m for m in before.get("missions", ())}
    for m in after.get("missions", ()):
        old = b_missions.get(m.get("slot"), {})
        if m.get("boxes_done", 0) > old.get("boxes_done", 0) and not m.get("complete"):
            lines.append(f"mission {m.get('id')}: {m.get('boxes_done')}/{m.get('boxes')} boxes done")
        if m.get("complete") and not old.get("complete"):
            tier = f" ({m['tier']})" if m.get("tier") else ""
            lines.append(f"mission {m.get('id')} COMPLETE{tier}")
        elif m.get("tier") and m.get("tier") != old.get("tier"):
            lines.append(f"mission {m.get('id')}: {m['tier']} success")
        if m.get("failed") and not old.get("failed"):
            lines.append(f"mission {m.get('id')} can no longer be completed")

    if after.get("dark_lady") and after.get("dark_lady") != before.get("dark_lady"):
        lines.append(f"the Dark Lady is at {after['dark_lady']}")
    new_closed = [r for r in after.get("closed_roads", []) if r not in before.get("closed_roads", [])]
    if new_closed:
        lines.append("roads closed: " + ", ".join("-".join(r) for r in new_closed))
    if (after.get("day"), after.get("pass")) != (before.get("day"), before.get("pass")):
        day = after.get("day")
        lines.append(f"the day is over; now day {'START' if day == 0 else day}")
    if after.get("outcome") is not None and before.get("outcome") is None:
        lines.append(f"the game is over: {_outcome_text(after['outcome'])}")
    return lines


# ---------------------------------------------------------------------------------------------
# maquis play
# ---------------------------------------------------------------------------------------------


def _missions_arg(text: str) -> list[str]:
    ids = [t.strip() for t in text.split(",") if t.strip()]
    if len(ids) != 2:
        raise argparse.ArgumentTypeError(f"give exactly two mission ids separated by a comma, got {text!r}")
    return ids


def _options_arg(text: str) -> dict:
    try:
        options = json.loads(text)
    except json.JSONDecodeError as err:
        raise argparse.ArgumentTypeError(f"not JSON: {err}") from None
    if not isinstance(options, dict):
        raise argparse.ArgumentTypeError("reset options must be a JSON object")
    return options


def _add_env_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--difficulty", default="normal", choices=DIFFICULTIES, help="difficulty level (default normal)"
    )
    p.add_argument(
        "--missions",
        type=_missions_arg,
        metavar="A,B",
        help="the two missions, e.g. sabotage,aid_the_spy (first -> mission_a); default: dealt at random",
    )
    p.add_argument(
        "--mission-pool",
        default="second_edition",
        choices=MISSION_POOLS,
        help="missions dealt from this pool (default second_edition)",
    )
    p.add_argument(
        "--deal", default="uniform", choices=DEALS, help="how missions are dealt (default uniform)"
    )
    p.add_argument("--seed", type=int, help="random seed (default: a fresh one, printed at the start)")


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    _add_env_arguments(p)
    p.add_argument(
        "--color",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="ANSI colours on the board (default: when the output is a terminal)",
    )
    p.add_argument(
        "--options",
        type=_options_arg,
        metavar="JSON",
        help="reset options of API.md for this game (patrol_deck, start, ...), e.g. "
        '\'{"start": {"resources": {"weapon": 2}}}\'',
    )
    p.add_argument("--record", metavar="FILE", help="write the episode as JSON for `maquis replay`")


def _print(*args, **kwargs) -> None:
    print(*args, **kwargs, file=sys.stdout, flush=True)


def _columns(items: Sequence[str], width: int) -> list[str]:
    """``items`` in as many columns as fit ``width``, numbered down the columns."""
    if not items:
        return []
    cell = max(len(s) for s in items) + 3
    ncols = max(1, min(len(items), (width - 2) // cell))
    nrows = -(-len(items) // ncols)
    rows = []
    for r in range(nrows):
        row = [items[c * nrows + r] for c in range(ncols) if c * nrows + r < len(items)]
        rows.append("  " + "".join(s.ljust(cell) for s in row).rstrip())
    return rows


def _match(answer: str, legal: list[tuple[int, str]], env) -> tuple[int | None, str]:
    """The action meant by ``answer`` (a list number, a name or a unique prefix), or None and why not."""
    text = answer.strip()
    if re.fullmatch(r"[+-]?[0-9]+", text):
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1][0], ""
        return None, f"There is no action number {n}: choose a number from 1 to {len(legal)}."
    key = text.lower()
    names = [name for _, name in legal]
    # An exact name, or a placement named by its location alone (`grocer` for `place:grocer`).
    short = [n.removeprefix("place:") for n in names]
    for forms in (names, short):
        hits = [i for i, f in enumerate(forms) if f == key]
        if len(hits) == 1:
            return legal[hits[0]][0], ""
    # Else a unique prefix of a name or of a name without its verb (`radio_a:air`, `act:fen`).
    hits = [i for i, n in enumerate(names) if n.startswith(key) or n.split(":", 1)[-1].startswith(key)]
    if len(hits) == 1:
        return legal[hits[0]][0], ""
    if hits:
        shown = ", ".join(names[i] for i in hits[:8]) + (", ..." if len(hits) > 8 else "")
        return None, f"{text!r} is ambiguous: it could be {shown}. Type more of the name or its number."
    try:
        index = env.action_from_str(key)
    except (ValueError, KeyError):
        index = None
    if index is not None:
        # The engine says why (with illegal_action="raise" it raises and changes nothing; the probe
        # is a copy all the same).
        why = f"{key!r} is not legal now (phase {env.state_dict().get('phase')})"
        try:
            env.clone().step(index)
        except ValueError as err:
            why = str(err)
        return None, f"Not allowed: {why}. Choose one of the listed actions."
    return None, f"{text!r} is not an action or command. Type a number from 1 to {len(legal)}, or `help`."


class _Game:
    """One terminal game: the environment, the record, and the undo stack."""

    def __init__(self, args: argparse.Namespace):
        self.color = sys.stdout.isatty() if args.color is None else bool(args.color)
        self.echo = not _isatty(sys.stdin)
        self.seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        self.env_kwargs = {
            "difficulty": args.difficulty,
            "mission_pool": args.mission_pool,
            "deal": args.deal,
        }
        if args.missions:
            self.env_kwargs["missions"] = list(args.missions)
        self.record_path = args.record
        # Only legal actions are ever sent; should one not be, fail loudly rather than end the game.
        self.env = _make_env(self.env_kwargs, illegal_action="raise")
        self.reset_options = args.options or None
        _reset(self.env, self.seed, self.reset_options)
        self.actions: list[str] = []
        self.history: list[str] = []  # save_state() before each decision, for undo
        self.total_reward = 0.0
        self.info: dict = {}
        self.news: list[str] = []

    # -- display ------------------------------------------------------------------------------

    def show(self) -> None:
        sd = self.env.state_dict()
        _print()
        _print(f"=== decision {len(self.actions) + 1} " + "=" * 40)
        _print(render_ansi(sd, color=self.color), end="")
        if self.news:
            _print("what happened:")
            for line in self.news:
                _print(f"  > {line}")
        legal = _legal_names(self.env)
        _print(f"legal actions ({len(legal)}):")
        width = shutil.get_terminal_size((100, 24)).columns
        for row in _columns([f"{k:>2}. {name}" for k, (_, name) in enumerate(legal, 1)], width):
            _print(row)

    def ask(self) -> str | None:
        try:
            line = input("your choice (number, name, help, quit)> ")
        except EOFError:
            _print()
            return None
        if self.echo:
            _print(line)
        return line

    # -- commands -----------------------------------------------------------------------------

    def save(self, path: str) -> None:
        try:
            Path(path).write_text(self.env.save_state())
        except (OSError, ValueError) as err:  # ValueError: a NUL in the name
            _print(f"Could not save to {path!r}: {err}")
            return
        _print(f"Saved the position to {path} (draw it with `maquis render {path} -o board.png`).")

    def undo(self) -> bool:
        if not self.history:
            _print("Nothing to undo.")
            return False
        self.env.load_state(self.history.pop())
        undone = self.actions.pop()
        self.news = [f"took back {undone}"]
        self.info = {}
        return True

    def play(self, index: int) -> None:
        before = self.env.state_dict()
        self.history.append(self.env.save_state())
        name = self.env.action_to_str(index)
        _, reward, _, _, info = self.env.step(index)
        self.actions.append(name)
        self.total_reward += float(reward)
        self.info = info
        self.news = [f"you chose {name}"] + describe_changes(before, self.env.state_dict(), name)

    # -- the game -----------------------------------------------------------------------------

    def over(self) -> bool:
        return self.env.state_dict().get("outcome") is not None

    def run(self) -> int:
        missions = ", ".join(f"{m['id']} ({m['slot']})" for m in self.env.state_dict().get("missions", ()))
        _print(f"Maquis - {self.env_kwargs['difficulty']}, seed {self.seed}; missions: {missions}")
        _print("Type `help` for how to play.")
        quit_early = False
        redraw = True
        while not self.over():
            if redraw:
                self.show()
            redraw = False
            line = self.ask()
            if line is None:
                _print("End of input: quitting.")
                quit_early = True
                break
            text = line.strip()
            word, _, rest = text.partition(" ")
            word = word.lower()
            if not text:
                _print("Please type a number from the list, an action name, or `help`.")
            elif word in ("help", "?", "h") and not rest:
                _print(HELP_TEXT)
            elif word in ("quit", "exit", "q") and not rest:
                _print("Quitting.")
                quit_early = True
                break
            elif word in ("board", "show") and not rest:
                redraw = True
            elif word == "undo" and not rest:
                redraw = self.undo()
            elif word == "save":
                if rest.strip():
                    self.save(rest.strip())
                else:
                    _print("Usage: save FILE  (writes the current position as JSON)")
            else:
                index, why = _match(text, _legal_names(self.env), self.env)
                if index is None:
                    _print(why)
                else:
                    self.play(index)
                    redraw = True
        if not quit_early:
            self.finish()
        self.write_record()
        return 0

    def finish(self) -> None:
        sd = self.env.state_dict()
        _print()
        _print("=" * 52)
        _print(render_ansi(sd, color=self.color), end="")
        for line in self.news:
            _print(f"  > {line}")
        outcome = sd.get("outcome")
        decisions = len(self.actions)
        _print(
            f"GAME OVER: {_outcome_text(outcome)} after {decisions} decisions (reward {self.total_reward:+g})"
        )
        for m in sd.get("missions", ()):
            state = "complete" if m.get("complete") else "failed" if m.get("failed") else "not complete"
            tier = f", {m['tier']}" if m.get("tier") else ""
            _print(f"  {m.get('id')}: {state}{tier} ({m.get('boxes_done', 0)}/{m.get('boxes', 0)} boxes)")

    def write_record(self) -> None:
        if not self.record_path:
            return
        episode = {
            "format": EPISODE_FORMAT,
            "version": EPISODE_VERSION,
            "env": self.env_kwargs,
            "seed": self.seed,
            "reset_options": self.reset_options,
            "actions": self.actions,
            "outcome": self.env.state_dict().get("outcome"),
        }
        try:
            Path(self.record_path).write_text(json.dumps(episode, indent=1) + "\n")
        except OSError as err:
            _print(f"Could not write the record {self.record_path!r}: {err}")
            return
        _print(f"Episode written to {self.record_path} (replay: maquis replay {self.record_path} -o frames/)")


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def run_play(args: argparse.Namespace) -> int:
    try:
        game = _Game(args)
    except UsageError as err:
        print(f"maquis play: {err}", file=sys.stderr)
        return 2
    try:
        return game.run()
    except KeyboardInterrupt:
        _print("\nInterrupted: quitting.")
        game.write_record()
        return 130


# ---------------------------------------------------------------------------------------------
# maquis render
# ---------------------------------------------------------------------------------------------


def add_render_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "state", metavar="STATE.json", help="a position saved by env.save_state() (or a state_dict as JSON)"
    )
    p.add_argument("-o", "--output", metavar="OUT.png", help="the PNG to write (default: STATE.png)")
    p.add_argument(
        "--width", type=int, default=960, help="image width in pixels (default 960; height is 3/4 of it)"
    )
    p.add_argument("--text", action="store_true", help="also print the text board")


def load_state_dict(text: str) -> dict:
    """The ``state_dict()`` of a saved position: ``env.save_state()`` output, or a state_dict as JSON."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"not JSON: {err}") from None
    if isinstance(data, dict) and data.get("format") == EPISODE_FORMAT:
        raise UsageError("this is a recorded episode, not a position: use `maquis replay`")
    env = _make_env({})
    try:
        env.load_state(text)
        return env.state_dict()
    except (ValueError, TypeError, KeyError) as err:
        if isinstance(data, dict) and isinstance(data.get("board"), dict) and "phase" in data:
            return data  # a plain state_dict: the renderers draw it as it is
        raise UsageError(f"not a saved position: {err}") from None


def run_render(args: argparse.Namespace) -> int:
    out = args.output or str(Path(args.state).with_suffix(".png"))
    try:
        if args.width < 16:
            raise UsageError(f"--width must be at least 16, got {args.width}")
        try:
            text = Path(args.state).read_text()
        except OSError as err:
            raise UsageError(f"cannot read {args.state}: {err.strerror or err}") from None
        sd = load_state_dict(text)
        try:
            write_png(out, render_rgb(sd, args.width))
        except OSError as err:
            raise UsageError(f"cannot write {out}: {err.strerror or err}") from None
    except UsageError as err:
        print(f"maquis render: {args.state}: {err}", file=sys.stderr)
        return 1
    if args.text:
        print(render_ansi(sd), end="")
    print(f"wrote {out} ({args.width}x{round(args.width * 3 / 4)})")
    return 0


# ---------------------------------------------------------------------------------------------
# maquis replay
# ---------------------------------------------------------------------------------------------


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("episode", metavar="EPISODE.json", help="an episode written by `maquis play --record`")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="DIR|OUT.gif",
        help="a directory for one PNG per step (step_000.png is the start), or a .gif file (needs Pillow)",
    )
    p.add_argument("--width", type=int, default=960, help="frame width in pixels (default 960)")
    p.add_argument(
        "--duration", type=int, default=700, metavar="MS", help="GIF: milliseconds per frame (default 700)"
    )


def load_episode(path_or_data) -> dict:
    """Read and check an episode (a path, or the already-parsed dict)."""
    if isinstance(path_or_data, Mapping):
        data = dict(path_or_data)
    else:
        try:
            data = json.loads(Path(path_or_data).read_text())
        except OSError as err:
            raise UsageError(f"cannot read {path_or_data}: {err.strerror or err}") from None
        except json.JSONDecodeError as err:
            raise UsageError(f"not JSON: {err}") from None
    if not isinstance(data, dict) or data.get("format") != EPISODE_FORMAT:
        raise UsageError(f'not a maquis episode (expected "format": "{EPISODE_FORMAT}")')
    if data.get("version") != EPISODE_VERSION:
        raise UsageError(
            f"episode version {data.get('version')!r} is not supported (expected {EPISODE_VERSION})"
        )
    if not isinstance(data.get("actions"), list) or not isinstance(data.get("env", {}), dict):
        raise UsageError("an episode needs an `actions` list and an `env` mapping")
    return data


def replay_states(episode: Mapping):
    """Yield the ``state_dict()`` of every position of ``episode``: the start, then after each action.

    Raises ``UsageError`` when an action is unknown or not legal where it is played, or when the
    game ends before the actions do (the episode was recorded with other rules or options).
    """
    env = _make_env(episode.get("env") or {})
    _reset(env, episode.get("seed"), episode.get("reset_options"))
    yield env.state_dict()
    for k, action in enumerate(episode["actions"], 1):
        sd = env.state_dict()
        if sd.get("outcome") is not None:
            raise UsageError(
                f"the game ended after {k - 1} actions, but the episode has {len(episode['actions'])}"
            )
        try:
            index = int(action) if isinstance(action, int) else env.action_from_str(str(action))
        except (ValueError, KeyError) as err:
            raise UsageError(f"action {k} ({action!r}) is unknown: {err}") from None
        if index not in env.legal_actions():
            raise UsageError(
                f"action {k} ({env.action_to_str(index)}) is not legal on day {sd.get('day')}, phase "
                f"{sd.get('phase')}: the episode does not replay with this engine and these options"
            )
        env.step(index)
        yield env.state_dict()


def run_replay(args: argparse.Namespace) -> int:
    out = args.output
    try:
        if args.width < 16:
            raise UsageError(f"--width must be at least 16, got {args.width}")
        episode = load_episode(args.episode)
        gif = out.lower().endswith(".gif")
        frames, written = [], 0
        if not gif:
            try:
                os.makedirs(out, exist_ok=True)
            except OSError as err:
                raise UsageError(f"cannot create the directory {out}: {err.strerror or err}") from None
        digits = max(3, len(str(len(episode["actions"]))))
        final = None
        for step, sd in enumerate(replay_states(episode)):
            final = sd
            image = render_rgb(sd, args.width)
            if gif:
                frames.append(image)
            else:
                write_png(os.path.join(out, f"step_{step:0{digits}d}.png"), image)
                written += 1
        if gif:
            try:
                write_gif(out, frames, duration_ms=args.duration)
            except RuntimeError as err:
                raise UsageError(str(err)) from None
            written = len(frames)
    except UsageError as err:
        print(f"maquis replay: {args.episode}: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"maquis replay: cannot write {out}: {err.strerror or err}", file=sys.stderr)
        return 1
    outcome = final.get("outcome") if final else None
    recorded = episode.get("outcome")
    what = f"{out}" if gif else f"{written} PNG files in {out}"
    print(f"wrote {what}: {len(episode['actions'])} actions, outcome {outcome or 'none (unfinished)'}")
    if recorded is not None and recorded != outcome:
        print(
            f"maquis replay: the recorded outcome was {recorded}, the replay gives {outcome}", file=sys.stderr
        )
        return 1
    return 0
