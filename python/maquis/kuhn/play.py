"""``maquis kuhn play``: a human plays Kuhn poker in the terminal against a bundled opponent, or
both seats hot-seat (the shared ``maquis.common.two_player_play``). Each screen shows only what the
deciding human's side may see: its own card, never the other (RULES O1, even after a showdown:
the GAME OVER line says who won)."""

from __future__ import annotations

import argparse
import json

from ..common.terminal import SCREEN_WIDTH, menu_lines
from ..common.two_player_play import TwoPlayerGame, add_play_arguments, run_play
from ._common import OPPONENTS
from .render import render_ansi, side_view
from .snapshot import VERBS as SNAPSHOT

SIDES = ("first", "second")

HELP_TEXT = """\
How to play Kuhn poker (docs/rules/kuhn.md): three cards J < Q < K, one each, the third unseen.
Each side has put 1 chip in the pot. first passes or bets 1; after a bet the other calls (bet)
or folds (pass); after pass-bet, first calls or folds. Two passes or a call: the higher card wins.
  <number> / <name>   1 or pass, 2 or bet (a unique prefix is enough: p, b)
  legal / l           the legal actions      board / b   the position as you see it
  save FILE           what your side sees    save --full FILE   the whole position
  help / ?            this text              quit / q    leave the game"""


class Game(TwoPlayerGame):
    """One terminal hand of Kuhn poker."""

    TITLE = "Kuhn poker"
    COMMAND = "kuhn"
    PACKAGE = "maquis.kuhn"
    AGENTS = "maquis.kuhn.agents"
    SIDES = SIDES
    OPPONENTS = OPPONENTS
    HELP_TEXT = HELP_TEXT

    def __init__(self, side: str, opponent: str, seed: int | None, out=print, ask=input, echo: bool = False):
        super().__init__(side, opponent, seed, 1, None, out, ask, echo)

    def narrate(self, mover: str, name: str, dice_before: int) -> list[str]:
        return [f"{mover}: {name}"]

    def screen(self) -> list[str]:
        legal = self.legal()
        names = [n for _, n in legal]
        board = self.banner + render_ansi(self.state(), side=self.viewer()).splitlines()
        title = [f"{self.env.agent_selection} to decide; legal actions ({len(legal)}):"]
        return board + self.news_lines(8, 1) + title + menu_lines(names, SCREEN_WIDTH)

    def board_text(self) -> str:
        return render_ansi(self.state(), side=self.viewer())

    def save_text(self, side: str, full: bool) -> tuple[str, bool, str | None]:
        if full:
            return self.env.save_state(), True, f"It holds the other card: draw it with --side {side} to keep that hidden."
        return json.dumps(side_view(self.state(), side), indent=1) + "\n", False, None

    def final_board(self, sd: dict) -> list[str]:
        viewer = self.humans[0] if len(self.humans) == 1 else None
        return render_ansi(sd, side=viewer).splitlines()

    def final_words(self, sd: dict) -> str:
        payoff = sd["payoff"]
        how = "at the showdown" if sd["history"][-1] == "bet" or sd["history"] == ["pass", "pass"] else "on a fold"
        return f"{sd['winner']} wins {how}, {payoff['first']:+d} / {payoff['second']:+d} chips"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_play_arguments(p, "kuhn", SIDES, OPPONENTS, 1)


def run(args: argparse.Namespace) -> int:
    return run_play(args, "kuhn", lambda seed, echo: Game(args.side, args.opponent, seed, echo=echo), SNAPSHOT.episode)
