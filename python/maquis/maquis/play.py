"""``maquis play``: a human plays a whole game in the terminal.

Each decision shows one 80 x 24 screen: the position in short (day, morale, soldiers, missions,
resources, workers, pieces, patrols), what happened, and the legal actions as a grouped, numbered
menu. The player answers with a number, an action name or a unique prefix of one (also ``help``,
``board`` for the full board, ``legal`` for every action, ``news``, ``undo``, ``save FILE``,
``quit``). ``--record FILE`` writes the episode (seed, options, actions by name) as an episode
file (``maquis.maquis.episode``) for ``maquis replay``.

``undo`` takes back decisions only as far as the last patrol card drawn: a decision that turned up
a hidden card (a placement, or the mole's peek) is never taken back, since playing it again would
show the same card and so the deck's hidden order. The game is never redealt, so a record replays.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
from pathlib import Path

from .episode import EPISODE_FORMAT, EPISODE_VERSION, UsageError, make_env, reset_env
from .narrator import describe_changes, outcome_text
from ..common.terminal import SCREEN_HEIGHT, SCREEN_WIDTH, clip, menu_lines
from .render import render_ansi
from .render.ansi import render_compact
from .tables import DEALS, DIFFICULTIES, MISSION_POOLS

__all__ = ["add_play_arguments", "run_play"]

HELP_TEXT = """\
Answer with one of:
  a number          the action with that number in the list
  an action name    e.g. place:grocer, act:fence:weapon, skip:doctor, accept
  a unique prefix   e.g. act:radio_a:air (the location part alone works too: grocer, fence:weapon)
  help  (or ?)      this text
  board             the full board (every location, the tracks, the patrol cards played)
  legal             every legal action, one a line
  news              everything that happened on the last decision
  undo              take back your last decision, back to the last patrol card drawn: a
                    decision that drew a hidden card is not taken back, since playing it again
                    would show you the deck's order (the record keeps it)
  save FILE         write the current position (JSON, for `maquis render` or env.load_state)
  quit  (or q)      stop the game (end of input quits too)
Each screen fits 80 x 24: the position in short, what happened, the menu. Menu lines like
`19-36. the same with :fake_id (number + 18)` stand for one entry each.
Each decision is one step: patrols, route checks and the end of the day happen by themselves.
Rules: placement - put every available worker on a free location (a patrol follows each worker);
action - activate each placed worker (perform an action or skip), then it must get home without
crossing a patrol, or it is arrested."""


def _legal_names(env) -> list[tuple[int, str]]:
    return [(int(i), env.action_to_str(int(i))) for i in env.legal_actions()]


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
        help="reset options of docs/api/maquis.md for this game (patrol_deck, start, ...), e.g. "
        '\'{"start": {"resources": {"weapon": 2}}}\'',
    )
    p.add_argument("--record", metavar="FILE", help="write the episode as JSON for `maquis replay`")


def _print(*args, **kwargs) -> None:
    print(*args, **kwargs, file=sys.stdout, flush=True)


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
        self.env = make_env(self.env_kwargs, illegal_action="raise")
        self.reset_options = args.options or None
        reset_env(self.env, self.seed, self.reset_options)
        self.actions: list[str] = []
        self.history: list[str] = []  # save_state() before each decision, for undo
        self.total_reward = 0.0
        self.info: dict = {}
        self.news: list[str] = []

    # -- display ------------------------------------------------------------------------------

    def screen(self) -> list[str]:
        """The lines shown before each decision: at most SCREEN_HEIGHT - 1 (the prompt is the last)
        of at most SCREEN_WIDTH characters."""
        room = SCREEN_HEIGHT - 1
        head = f"=== Maquis, decision {len(self.actions) + 1} " + "=" * 40
        head = [f"\x1b[1m{head}\x1b[0m" if self.color else head]
        board = render_compact(self.env.state_dict(), SCREEN_WIDTH).splitlines()
        legal = _legal_names(self.env)
        menu = menu_lines([name for _, name in legal], SCREEN_WIDTH)
        title = [f"legal actions ({len(legal)}):"]
        left = room - len(head) - len(board) - len(title)
        news = [clip(f"  > {line}", SCREEN_WIDTH) for line in self.news]
        # The menu first, then as much news as fits (at least a line), the latest kept.
        news_room = max(1, left - len(menu)) if news else 0
        if len(news) > news_room:
            news = news[len(news) - news_room + 1 :] if news_room > 1 else []
            news.insert(0, f"  > ... {len(self.news) - len(news)} more: type `news`")
        menu = menu_lines([name for _, name in legal], SCREEN_WIDTH, max_lines=left - len(news))
        return head + board + news + title + menu

    def show(self) -> None:
        _print()
        for line in self.screen():
            _print(line)

    def show_board(self) -> None:
        _print(render_ansi(self.env.state_dict(), color=self.color), end="")

    def show_legal(self) -> None:
        for k, (_, name) in enumerate(_legal_names(self.env), 1):
            _print(f"{k:>3}. {name}")

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
            if self.actions:
                _print(
                    f"Nothing to undo: {self.actions[-1]} drew a hidden patrol card, and taking it back "
                    "would show you the deck's order. Undo goes back only to the last card drawn."
                )
            else:
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
        after = self.env.state_dict()
        self.news = [f"you chose {name}"] + describe_changes(before, after, name)
        if _drew_hidden_card(before, after):
            # Taking this back and playing again would show the same card: a look at the deck.
            self.history.clear()

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
                self.show_board()
            elif word in ("legal", "actions", "l") and not rest:
                self.show_legal()
            elif word == "news" and not rest:
                for item in self.news or ["nothing yet"]:
                    _print(f"  > {item}")
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
            f"GAME OVER: {outcome_text(outcome)} after {decisions} decisions (reward {self.total_reward:+g})"
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


def _drew_hidden_card(before: dict, after: dict) -> bool:
    """Whether a decision turned up a patrol card that was hidden in the deck (P2): one newly
    in the discard pile, or a new top card seen by the mole."""
    seen = set(before.get("patrol_discard", ()))
    if any(card not in seen for card in after.get("patrol_discard", ())):
        return True
    peek = after.get("peek")
    return peek is not None and peek != before.get("peek")


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
