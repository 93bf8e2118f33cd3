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
import secrets
import sys
from typing import Any

from ..common.cli import add_side
from ..common.terminal import SCREEN_HEIGHT, SCREEN_WIDTH, clip, menu_lines
from .opponents import OPPONENTS, make_agent, other
from .render import render_ansi, side_view
from .render.ansi import render_compact
from .snapshot import episode

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
    the ``legal`` (index, name) pairs, or None and the reason."""
    text = text.strip()
    names = [n for _, n in legal]
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(legal):
            return legal[k - 1][0], ""
        return None, f"There is no entry {k}: the menu has entries 1-{len(legal)} (use #{k} for action index {k})."
    if text.startswith("#"):
        body = text[1:].strip()
        if not body.isdigit():
            return None, f"`{text}` is not an action index: type # and a number 0-190."
        index = int(body)
        for i, name in legal:
            if i == index:
                return i, ""
        try:
            name = _name_of(index)
        except ValueError:
            return None, f"There is no action with index {index} (0-190)."
        return None, f"Action #{index} ({name}) is not legal now; type `legal` for the list."
    lowered = text.lower()
    if lowered in names:
        return legal[names.index(lowered)][0], ""
    hits = [(i, n) for i, n in legal if n.startswith(lowered)]
    if len(hits) == 1:
        return hits[0][0], ""
    if len(hits) > 1:
        shown = ", ".join(n for _, n in hits[:8]) + (" ..." if len(hits) > 8 else "")
        return None, f"`{text}` matches {len(hits)} legal actions ({shown}): type more of the name."
    try:
        action_from_str(lowered)
    except (ValueError, KeyError):
        return None, f"`{text}` is not an action, a menu number or a command (type `help`)."
    return None, f"`{text}` is not legal now; type `legal` for the list."


def _name_of(index: int) -> str:
    from . import ACTION_NAMES

    if not 0 <= index < len(ACTION_NAMES):
        raise ValueError(index)
    return ACTION_NAMES[index]


class Game:
    """One terminal game: the environment, who is human, the bundled opponent, the news."""

    def __init__(self, side: str, opponent: str, seed: int | None, budget: int = 200, out=print, ask=input,
                 echo: bool = False):
        from . import raw_env

        if side not in (*SIDES, "both"):
            raise ValueError(f"unknown side {side!r}: expected resistance, german or both")
        if opponent not in OPPONENTS:
            raise ValueError(f"unknown opponent {opponent!r}: expected one of {', '.join(OPPONENTS)}")
        self.humans = SIDES if side == "both" else (side,)
        self.env = raw_env()
        self.env.reset(seed=seed)
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

    # -- what a side may see ----------------------------------------------------------------

    def viewer(self) -> str:
        """Whose information the screen shows now: the deciding human, else the one human."""
        mover = self.env.agent_selection
        if mover in self.humans:
            return mover
        return "resistance" if "resistance" in self.humans else self.humans[0]

    def legal(self) -> list[tuple[int, str]]:
        mask = self.env.observe(self.env.agent_selection)["action_mask"]
        return [(int(i), self.env.action_to_str(int(i))) for i in mask.nonzero()[0]]

    def narrate(self, mover: str, name: str, dice_before: int) -> list[str]:
        # The German's allocation is secret from the Resistance (G4): a Resistance human (and a
        # hot-seat table) learns only that an item was placed.
        if name.startswith("allocate:") and "resistance" in self.humans:
            lines = [f"{mover} places an item (hidden)"]
        else:
            lines = [f"{mover}: {name}"]
        sd = self.env.state_dict()
        for roll in sd.get("dice_log", [])[dice_before:]:
            lines.append(f"  dice {roll['event']}: {list(roll['dice'])}")
        return lines

    def screen(self) -> list[str]:
        """The lines shown before each decision: at most SCREEN_HEIGHT - 1 (the prompt is the
        last) of at most SCREEN_WIDTH characters, the position as the deciding side sees it."""
        board = render_compact(side_view(self.env.state_dict(), self.viewer()), SCREEN_WIDTH).splitlines()
        legal = self.legal()
        title = [f"{self.env.agent_selection} to decide; legal actions ({len(legal)}):"]
        board = self.banner + board
        left = SCREEN_HEIGHT - 1 - len(board) - len(title)
        names = [n for _, n in legal]
        news = [clip(f"  > {line}", SCREEN_WIDTH) for line in self.news]
        news_room = max(1, left - len(menu_lines(names, SCREEN_WIDTH))) if news else 0
        if len(news) > news_room:
            kept = news[len(news) - news_room + 1 :] if news_room > 1 else []
            news = [f"  > ... {len(news) - len(kept)} earlier events: `board` shows the position in full", *kept]
        return board + news + title + menu_lines(names, SCREEN_WIDTH, max_lines=left - len(news))

    def show(self) -> None:
        self.out("")
        for line in self.screen():
            self.out(line)
        self.news = []
        self.banner = []

    def show_board(self) -> None:
        self.out(render_ansi(side_view(self.env.state_dict(), self.viewer())).rstrip("\n"))

    def list_legal(self) -> None:
        legal = self.legal()
        self.out(f"{self.env.agent_selection} to decide; legal actions ({len(legal)}):")
        for k, (_, n) in enumerate(legal, 1):
            self.out(f"{k:>3}. {n}")

    # -- the game ---------------------------------------------------------------------------

    def over(self) -> bool:
        return self.env.state_dict().get("outcome") is not None

    def step(self, index: int) -> None:
        mover = self.env.agent_selection
        name = self.env.action_to_str(index)
        before = len(self.env.state_dict().get("dice_log", []))
        self.env.step(index)
        self.actions.append(name)
        self.decisions += 1
        self.news += self.narrate(mover, name, before)

    def bot_turns(self) -> None:
        while not self.over() and self.env.agent_selection not in self.humans:
            agent = self.env.agent_selection
            view = self.env.observe(agent)
            self.step(int(self.bot.act(view["observation"], view["action_mask"])))

    def run(self) -> int:
        who = " and ".join(self.humans) + (" (hot-seat)" if len(self.humans) == 2 else "")
        against = "" if len(self.humans) == 2 else f" against the {self.opponent} opponent"
        self.out(f"D-Day 1944 - you play {who}{against}, seed {self.seed}. Type `help` for how to play.")
        redraw = True
        while True:
            self.bot_turns()
            if self.over():
                break
            mover = self.env.agent_selection
            if len(self.humans) == 2 and mover != self.last_human:
                if mover == "resistance" and self.last_human == "german":
                    self.out("\n" * 60)  # scroll the German's view (his allocation) off the screen
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
                self.out(HELP_TEXT)
            elif word in ("quit", "exit", "q"):
                self.out("Quitting.")
                return 0
            elif word in ("board", "b", "show"):
                self.show_board()
            elif word in ("legal", "l", "list"):
                self.list_legal()
            elif word == "save" or word.startswith("save "):
                self.save(text[4:].strip())
            else:
                index, why = match_action(text, self.legal(), self.env.action_from_str)
                if index is None:
                    self.out(why)
                else:
                    self.step(index)
                    redraw = True
        self.finish()
        return 0

    def save(self, args: str) -> None:
        full = args.split(" ", 1)[0] == "--full"
        path = args.split(" ", 1)[1].strip() if full and " " in args else ("" if full else args)
        if not path:
            self.out("Usage: save FILE  (what your side sees)  or  save --full FILE  (the whole position)")
            return
        side = self.viewer()
        view = side_view(self.env.state_dict(), side)
        # What the side may see, unless asked for the whole (reloadable) position; the German
        # sees everything, so his save is always the whole one.
        whole = full or not view["hidden"]
        text = self.env.save_state() if whole else json.dumps(view, indent=1) + "\n"
        try:
            with open(path, "w") as f:
                f.write(text)
        except (OSError, ValueError) as err:  # ValueError: a NUL in the name
            self.out(f"Could not save to {path!r}: {err}")
            return
        what = "the whole position" if whole else f"the position as the {side} sees it"
        self.out(f"Saved {what} to {path} (draw it with `maquis dday render {path} --side {side} -o board.png`).")
        if whole and view["hidden"]:
            self.out(f"It holds what the {side} may not see: draw it with --side {side} to keep that hidden.")

    def finish(self) -> None:
        sd = self.env.state_dict()
        viewer = "resistance" if "resistance" in self.humans else "german"
        self.out("")
        self.out("=" * 60)
        board = render_compact(side_view(sd, viewer), SCREEN_WIDTH).splitlines()
        news = self.news[-max(1, SCREEN_HEIGHT - 3 - len(board)) :]
        for line in board + [clip(f"  > {line}", SCREEN_WIDTH) for line in news]:
            self.out(line)
        vp = sd["vp"]
        result = "a draw" if sd["outcome"] == "draw" else f"the {sd['outcome']} side wins"
        self.out(f"GAME OVER: {result}, {vp['resistance']}-{vp['german']} VP, after {self.decisions} decisions.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_side(p, (*SIDES, "both"), "resistance", "the side you play; `both` is hot-seat (default: resistance)")
    p.add_argument("--opponent", choices=OPPONENTS, default="heuristic",
                   help="the bundled opponent (default: heuristic)")
    p.add_argument("--budget", type=int, default=200, help="simulations per decision of `search` (default 200)")
    p.add_argument("--seed", type=int, default=None, help="the game's seed (default: a fresh one, printed at the start)")
    p.add_argument("--record", metavar="FILE", help="write the episode as JSON for `maquis dday replay`")


def run(args: argparse.Namespace) -> int:
    if args.budget < 1:
        print(f"maquis dday play: --budget must be at least 1, got {args.budget}")
        return 2
    try:
        echo = not sys.stdin.isatty()
    except (AttributeError, ValueError):
        echo = True
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    game = Game(args.side, args.opponent, seed, args.budget, echo=echo)
    try:
        code = game.run()
    except KeyboardInterrupt:
        print("\nInterrupted: quitting.")
        code = 0
    if args.record:
        data = episode(seed, game.actions, game.env.state_dict().get("outcome"))
        try:
            with open(args.record, "w") as f:
                json.dump(data, f, indent=1)
                f.write("\n")
        except OSError as err:
            print(f"maquis dday play: cannot write {args.record}: {err.strerror or err}", file=sys.stderr)
            return 2
        print(f"Recorded {len(game.actions)} decisions to {args.record} (`maquis dday replay {args.record} -o DIR`).")
    return code
