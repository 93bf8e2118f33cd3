"""``maquis dday play``: a human plays D-Day 1944 in the terminal against a bundled opponent, or
both sides hot-seat. Each prompt shows only what the deciding human's side may see (RULES O1–O4):
the Resistance never sees the zones it has not attacked, nor where the German put his items.

Each decision shows one 80 x 24 screen (the compact view, the news, a grouped menu); ``board``
shows the full view. Actions are entered by menu number, by name (or a unique prefix of a legal
name), or by index as ``#<index>``. Bad input gets a message and a new prompt; end of input quits
cleanly. ``save FILE`` writes what the player's side sees (``save --full FILE`` the whole,
reloadable position), and its hint draws it with ``--side`` set to that side.
"""

from __future__ import annotations

import argparse
import json

from ..common import terminal
from ..common.terminal import SCREEN_HEIGHT, SCREEN_WIDTH, menu_lines
from ..common.two_player_play import TwoPlayerGame, add_play_arguments, run_play
from .opponents import OPPONENTS
from .render import render_ansi, side_view
from .render.ansi import render_compact
from .snapshot import VERBS as SNAPSHOT

SIDES = ("resistance", "german")

HELP_TEXT = """\
How to play D-Day 1944:
  <number>      choose that entry of the legal-action menu
  <name>        an action name, e.g. guess:caen:5, attack:caen:lison, move:2, end_turn
                (a unique prefix of a legal name is enough, e.g. `stop` or `attack:caen:l`)
  #<index>      an action by its index in the flat action space (0-190)
  legal / l     list every legal action, one a line
  board / b     the full view of the position (long: the compact one is shown each turn)
  save FILE     write what your side sees, for `maquis dday render FILE --side SIDE`; the
                Resistance's save leaves out the zones it has not attacked
  save --full FILE
                the whole position, hidden zones included (for env.load_state): render it with
                `--side` to keep the German's allocation hidden
  help / ?      this text
  quit / q      leave the game
Each screen fits 80 x 24. A menu line like `1-10. guess:caen:1..10` is ten entries, 1 for
guess:caen:1 up to 10 for guess:caen:10. In the skirmish table, T marks the task section,
x casualty markers, * the acting figure; k/r/e count figures killed, ran away, evacuated.
The rules: docs/dday.md and docs/rules/dday1944.md. Guess answers: too_high means the zone is worth less."""


def match_action(text: str, legal: list[tuple[int, str]], action_from_str) -> tuple[int | None, str]:
    """The action index meant by ``text`` (menu number, name, unique prefix or ``#index``) among
    the ``legal`` (index, name) pairs, or None and the reason (``common.terminal.match_action``)."""
    from . import ACTION_NAMES

    return terminal.match_action(text, legal, action_from_str, ACTION_NAMES)


class Game(TwoPlayerGame):
    """One terminal game of D-Day 1944 (``maquis.common.two_player_play``)."""

    TITLE = "D-Day 1944"
    COMMAND = "dday"
    PACKAGE = "maquis.dday"
    AGENTS = "maquis.dday.opponents"
    SIDES = SIDES
    OPPONENTS = OPPONENTS
    HELP_TEXT = HELP_TEXT

    def __init__(self, side: str, opponent: str, seed: int | None, budget: int = 200, out=print, ask=input,
                 echo: bool = False):
        super().__init__(side, opponent, seed, budget, None, out, ask, echo)

    def narrate(self, mover: str, name: str, dice_before: int) -> list[str]:
        # The German's allocation is secret from the Resistance (G4): a Resistance human (and a
        # hot-seat table) learns only that an item was placed.
        hidden = name.startswith("allocate:") and "resistance" in self.humans
        lines = [f"{mover} places an item (hidden)" if hidden else f"{mover}: {name}"]
        return lines + [f"  dice {r['event']}: {list(r['dice'])}" for r in self.rolls(dice_before)]

    def screen(self) -> list[str]:
        """The lines shown before each decision: at most SCREEN_HEIGHT - 1 (the prompt is the
        last) of at most SCREEN_WIDTH characters, the position as the deciding side sees it."""
        board = self.banner + render_compact(side_view(self.state(), self.viewer()), SCREEN_WIDTH).splitlines()
        legal = self.legal()
        title = [f"{self.env.agent_selection} to decide; legal actions ({len(legal)}):"]
        left = SCREEN_HEIGHT - 1 - len(board) - len(title)
        names = [n for _, n in legal]
        news = self.news_lines(left, len(menu_lines(names, SCREEN_WIDTH)))
        return board + news + title + menu_lines(names, SCREEN_WIDTH, max_lines=left - len(news))

    def board_text(self) -> str:
        return render_ansi(side_view(self.state(), self.viewer()))

    def hides_from(self, mover: str) -> bool:
        # Only the German's view holds what the other may not see (his allocation).
        return mover == "resistance" and self.last_human == "german"

    def save_text(self, side: str, full: bool) -> tuple[str, bool, str | None]:
        view = side_view(self.state(), side)
        # What the side may see, unless asked for the whole (reloadable) position; the German
        # sees everything, so his save is always the whole one.
        if full or not view["hidden"]:
            note = f"It holds what the {side} may not see: draw it with --side {side} to keep that hidden."
            return self.env.save_state(), True, note if view["hidden"] else None
        return json.dumps(view, indent=1) + "\n", False, None

    def seen_by(self, side: str) -> str:
        return f"the {side}"

    def final_board(self, sd: dict) -> list[str]:
        viewer = "resistance" if "resistance" in self.humans else "german"
        return render_compact(side_view(sd, viewer), SCREEN_WIDTH).splitlines()

    def final_words(self, sd: dict) -> str:
        vp = sd["vp"]
        result = "a draw" if sd["outcome"] == "draw" else f"the {sd['outcome']} side wins"
        return f"{result}, {vp['resistance']}-{vp['german']} VP"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_play_arguments(p, "dday", SIDES, OPPONENTS, 200)


def run(args: argparse.Namespace) -> int:
    if args.budget < 1:
        print(f"maquis dday play: --budget must be at least 1, got {args.budget}")
        return 2
    return run_play(args, "dday", lambda seed, echo: Game(args.side, args.opponent, seed, args.budget, echo=echo), SNAPSHOT.episode)
