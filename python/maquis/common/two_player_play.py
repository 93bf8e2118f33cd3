"""What every two-player game's ``play`` verb shares: a human against a bundled opponent in the
terminal, or both sides hot-seat, one 80 x 24 screen a decision, the commands (``help``, ``legal``,
``board``, ``save``, ``quit``), actions by menu number, name, unique prefix or ``#index``, and
``--record``.

A game subclasses `TwoPlayerGame` with its own parts: its screen, its narration, what a side may
see and save, and how the game ended; its ``play.py`` passes its flags to `add_play_arguments` and
its game to `run_play`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .cli import add_side
from .terminal import SCREEN_HEIGHT, SCREEN_WIDTH, clip, match_action

__all__ = ["TwoPlayerGame", "add_play_arguments", "run_play"]


class TwoPlayerGame:
    """One terminal game: the environment, who is human, the bundled opponent, the news.

    A subclass sets the class attributes and implements `screen`, `board_text`, `narrate`,
    `save_text`, `final_board` and `final_words`; the other methods have a default it may change."""

    #: The game's title, its command-line name, its package and the module of its `make_agent`.
    TITLE = ""
    COMMAND = ""
    PACKAGE = ""
    AGENTS = ""
    SIDES: tuple[str, str] = ("", "")
    OPPONENTS: tuple[str, ...] = ()
    HELP_TEXT = ""
    #: Width of the numbers of `legal`'s list.
    LEGAL_NUMBER_WIDTH = 3

    def __init__(self, side: str, opponent: str, seed: int | None, budget: int, options: dict | None,
                 out=print, ask=input, echo: bool = False):
        package = importlib.import_module(self.PACKAGE)
        make_agent = importlib.import_module(self.AGENTS).make_agent
        if side not in (*self.SIDES, "both"):
            raise ValueError(f"unknown side {side!r}: expected {self.SIDES[0]}, {self.SIDES[1]} or both")
        if opponent not in self.OPPONENTS:
            raise ValueError(f"unknown opponent {opponent!r}: expected one of {', '.join(self.OPPONENTS)}")
        self.names = package.ACTION_NAMES
        self.humans = self.SIDES if side == "both" else (side,)
        self.options = options
        self.env = package.raw_env()
        self.env.reset(seed=seed, options=options)
        self.seed = seed
        self.opponent = opponent
        bot_seed = None if seed is None else seed * 7919 + 17
        self.bot = None if side == "both" else make_agent(opponent, seed=bot_seed, budget=budget)
        self.out, self.ask_line = out, ask
        self.echo = echo  # input that is not typed (a pipe) is shown, so the transcript reads well
        self.news: list[str] = []
        self.banner: list[str] = []  # the hot-seat's "pass the terminal" line, shown with the next screen
        self.last_human: str | None = None
        self.decisions = 0
        self.actions: list[str] = []  # both sides' decisions by name, for --record
        self._state: dict | None = None

    # -- what a side may see ----------------------------------------------------------------

    def viewer(self) -> str:
        """Whose information the screen shows: the deciding human, else the one human."""
        mover = self.env.agent_selection
        return mover if mover in self.humans else self.humans[0]

    def state(self) -> dict:
        """The full state_dict, read once per decision (a screen asks for it several times)."""
        if self._state is None:
            self._state = self.env.state_dict()
        return self._state

    def legal(self) -> list[tuple[int, str]]:
        mask = self.env.observe(self.env.agent_selection)["action_mask"]
        return [(int(i), self.names[int(i)]) for i in mask.nonzero()[0]]

    def menu_names(self, legal: list[tuple[int, str]]) -> list[str]:
        """The names as the menu shows them."""
        return [name for _, name in legal]

    def help_lines(self) -> list[str]:
        """What `help` prints."""
        return [self.HELP_TEXT]

    def screen(self) -> list[str]:
        """The lines shown before each decision: at most SCREEN_HEIGHT - 1 (the prompt is the
        last) of at most SCREEN_WIDTH characters, the position as the deciding side sees it."""
        raise NotImplementedError

    def board_text(self) -> str:
        """The whole position as the viewer may see it (the `board` command)."""
        raise NotImplementedError

    def rolls(self, dice_before: int) -> list[dict]:
        """The dice rolled since the dice log held `dice_before` rolls."""
        return self.state().get("dice_log", [])[dice_before:]

    def narrate(self, mover: str, name: str, dice_before: int) -> list[str]:
        """The news of `mover`'s decision `name`, the dice rolled since `dice_before` included."""
        raise NotImplementedError

    def news_lines(self, left: int, menu: int) -> list[str]:
        """The news as screen lines, fitted into the `left` lines that the menu (`menu` lines long)
        shares with them: the oldest give way to a line that says how many."""
        news = [clip(f"  > {line}", SCREEN_WIDTH) for line in self.news]
        news_room = max(1, left - menu) if news else 0
        if len(news) > news_room:
            kept = news[len(news) - news_room + 1 :] if news_room > 1 else []
            news = [f"  > ... {len(news) - len(kept)} earlier events: `board` shows the position in full", *kept]
        return news

    def show(self) -> None:
        self.out("")
        for line in self.screen():
            self.out(line)
        self.news = []
        self.banner = []

    def list_legal(self) -> None:
        legal = self.legal()
        self.out(f"{self.env.agent_selection} to decide; legal actions ({len(legal)}):")
        for k, name in enumerate(self.menu_names(legal), 1):
            self.out(f"{k:>{self.LEGAL_NUMBER_WIDTH}}. {name}")

    # -- the game ---------------------------------------------------------------------------

    def over(self) -> bool:
        return self.state().get("outcome") is not None

    def step(self, index: int) -> None:
        mover = self.env.agent_selection
        name = self.names[index]
        before = len(self.state().get("dice_log", []))
        self.env.step(index)
        self._state = None
        self.actions.append(name)
        self.decisions += 1
        self.news += self.narrate(mover, name, before)

    def bot_turns(self) -> None:
        while not self.over() and self.env.agent_selection not in self.humans:
            view = self.env.observe(self.env.agent_selection)
            self.step(int(self.bot.act(view["observation"], view["action_mask"])))

    def title(self) -> str:
        """The first line: what is played, by whom, with which seed."""
        who = " and ".join(self.humans) + (" (hot-seat)" if len(self.humans) == 2 else "")
        against = "" if len(self.humans) == 2 else f" against the {self.opponent} opponent"
        return f"{self.game_title()} - you play {who}{against}, seed {self.seed}. Type `help` for how to play."

    def game_title(self) -> str:
        return self.TITLE

    def hides_from(self, mover: str) -> bool:
        """Whether the last screen (the other human's) must scroll away before `mover`'s."""
        return self.last_human is not None

    def typed_action(self, text: str) -> str:
        """The action a line names, as `match_action` reads it (a menu entry may add to the name)."""
        return text

    def run(self) -> int:
        self.out(self.title())
        redraw = True
        while True:
            self.bot_turns()
            if self.over():
                break
            mover = self.env.agent_selection
            if len(self.humans) == 2 and mover != self.last_human:
                if self.hides_from(mover):
                    self.out("\n" * 60)  # scroll the other player's view off the screen
                self.banner = [f"=== {mover.upper()} to play: pass the terminal to the {mover} player ==="]
                redraw = True
            self.last_human = mover
            if redraw:
                self.show()
            redraw = False
            try:
                line = self.ask_line(f"{mover}> ")
                if self.echo:
                    self.out(line)
            except EOFError:
                self.out("")
                self.out("End of input: quitting.")
                return 0
            text = line.strip()
            word = text.lower()
            if not text:
                self.out("Type a menu number, an action name, or `help`.")
            elif word in ("help", "?", "h"):
                for help_line in self.help_lines():
                    self.out(help_line)
            elif word in ("quit", "exit", "q"):
                self.out("Quitting.")
                return 0
            elif word in ("board", "b", "show"):
                self.out(self.board_text().rstrip("\n"))
            elif word in ("legal", "l", "list"):
                self.list_legal()
            elif word == "save" or word.startswith("save "):
                self.save(text[4:].strip())
            else:
                index, why = match_action(self.typed_action(text), self.legal(), self.env.action_from_str, self.names)
                if index is None:
                    self.out(why)
                else:
                    self.step(index)
                    redraw = True
        self.finish()
        return 0

    # -- save and the end -------------------------------------------------------------------

    def save_text(self, side: str, full: bool) -> tuple[str, bool, str | None]:
        """What `save` writes for `side` (`full`: the whole position asked for): the text, whether
        it is the whole position, and a line to add when it holds what `side` may not see."""
        raise NotImplementedError

    def seen_by(self, side: str) -> str:
        """`side` as the save message names it ("the position as … sees it")."""
        return side

    def save(self, args: str) -> None:
        full = args.split(" ", 1)[0] == "--full"
        path = args.split(" ", 1)[1].strip() if full and " " in args else ("" if full else args)
        if not path:
            self.out("Usage: save FILE  (what your side sees)  or  save --full FILE  (the whole position)")
            return
        side = self.viewer()
        text, whole, note = self.save_text(side, full)
        try:
            with open(path, "w") as f:
                f.write(text)
        except (OSError, ValueError) as err:  # ValueError: a NUL in the name
            self.out(f"Could not save to {path!r}: {err}")
            return
        what = "the whole position" if whole else f"the position as {self.seen_by(side)} sees it"
        self.out(f"Saved {what} to {path} (draw it with `maquis {self.COMMAND} render {path} --side {side} -o board.png`).")
        if note:
            self.out(note)

    def final_board(self, sd: dict) -> list[str]:
        """The lines of the last position shown at the end."""
        raise NotImplementedError

    def final_words(self, sd: dict) -> str:
        """How the game ended, for the GAME OVER line."""
        raise NotImplementedError

    def finish(self) -> None:
        sd = self.state()
        self.out("")
        self.out("=" * 60)
        board = self.final_board(sd)
        news = self.news[-max(1, SCREEN_HEIGHT - 3 - len(board)) :]
        for line in board + [clip(f"  > {line}", SCREEN_WIDTH) for line in news]:
            self.out(line)
        self.out(f"GAME OVER: {self.final_words(sd)}, after {self.decisions} decisions.")


def add_play_arguments(p: argparse.ArgumentParser, command: str, sides: Sequence[str], opponents: Sequence[str],
                       budget: int, more: Callable[[argparse.ArgumentParser], None] | None = None) -> None:
    """The flags of a two-player game's `play`: the first of `sides` is the default; `more` adds
    the game's own flags after `--budget`."""
    add_side(p, (*sides, "both"), sides[0], f"the side you play; `both` is hot-seat (default: {sides[0]})")
    p.add_argument("--opponent", choices=opponents, default="heuristic", help="the bundled opponent (default: heuristic)")
    p.add_argument("--budget", type=int, default=budget, help=f"simulations per decision of `search` (default {budget})")
    if more:
        more(p)
    p.add_argument("--seed", type=int, default=None, help="the game's seed (default: a fresh one, printed at the start)")
    p.add_argument("--record", metavar="FILE", help=f"write the episode as JSON for `maquis {command} replay`")


def run_play(args: argparse.Namespace, command: str, make_game: Callable[[int, bool], TwoPlayerGame],
             episode: Callable[[int, list[str], Any, Any], dict]) -> int:
    """`maquis <command> play`: the game `make_game(seed, echo)` played to its end (or quit), and
    recorded with `episode(seed, actions, outcome, reset options)` when `--record` asks."""
    try:
        echo = not sys.stdin.isatty()
    except (AttributeError, ValueError):
        echo = True
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    game = make_game(seed, echo)
    try:
        code = game.run()
    except KeyboardInterrupt:
        print("\nInterrupted: quitting.")
        code = 0
    if args.record:
        data = episode(seed, game.actions, game.state().get("outcome"), game.options)
        try:
            with open(args.record, "w") as f:
                json.dump(data, f, indent=1)
                f.write("\n")
        except OSError as err:
            print(f"maquis {command} play: cannot write {args.record}: {err.strerror or err}", file=sys.stderr)
            return 2
        print(f"Recorded {len(game.actions)} decisions to {args.record} (`maquis {command} replay {args.record} -o DIR`).")
    return code
