"""``maquis maurice play``: a human plays Maurice Lite in the terminal against a bundled opponent,
or both sides hot-seat. Each prompt shows only what the deciding human's side may see (RULES
O1–O3): his own hand, never the enemy's nor the deck's order.

Each decision shows one 80 x 24 screen: the map rows that keep both armies in view (every row
with a unit or a CinC when they fit, else the rows of the action and of each army's front lines;
a row number followed by ``:`` has rows left out above it) beside a short panel (round, the moving
unit's spent and remaining allowance, the modifier cards played and what they changed, morale,
cards, his hand, the round state), the news (a modifier card with what it does), and a grouped
menu of the legal actions (up to 1447 exist; ``unit:<id>`` entries say where the unit stands).
``board`` shows the whole position; ``help`` what every card does. Actions are entered by menu number, by name (or a unique prefix of a legal name),
or by index as ``#<index>``. Bad input gets a message and a new prompt; end of input quits cleanly.
``save FILE`` writes what the player's side sees, ``save --full FILE`` the whole, reloadable
position.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..common.terminal import SCREEN_HEIGHT, SCREEN_WIDTH, clip, menu_lines
from ..common.two_player_play import TwoPlayerGame, add_play_arguments, run_play
from .render import render_ansi, render_compact, side_view
from .render.view import UNIT_LETTERS, card_table, modifier_effect, outcome_line, other
from .snapshot import VERBS as SNAPSHOT

SIDES = ("blue", "red")
OPPONENTS = ("random", "heuristic", "search")
SCENARIOS = ("standard", "skirmish")
#: Lines of the map window and panel on each screen: as many as the menu leaves, within these.
BOARD_LINES = (8, 15)

HELP_TEXT = """\
How to play Maurice Lite:
  <number>      choose that entry of the legal-action menu
  <name>        an action name, e.g. volley, march, unit:3, card:march_8, move:forward,
                cell:22:5 (a unique prefix of a legal name is enough, e.g. `confirm`)
  #<index>      an action by its index in the flat action space (0-1446)
  legal / l     list every legal action, one a line
  board / b     the whole position (the map, every unit, the round): long
  save FILE     write what your side sees, for `maquis maurice render FILE --side SIDE`
  save --full FILE
                the whole position, the enemy's hand included (for env.load_state)
  help / ?      this text
  quit / q      leave the game
Map: I inf, C cav, A art (capitals blue, small red), B/R the CinCs, T woods, % rough, ~ marsh,
# lake, ^ hill, = a wall between two rows. Blue's edge is row 0 (bottom), red's row 29.
The screen shows the rows with units and CinCs (and the action's); a row number followed by `:`
has rows left out above it (`board` shows every row). The panel's `unit 3 moving`, `spent 2 of
4 BW, 2 left` is the moving unit's allowance (with the march cards' change, e.g. `march cards
6 -> 4`); each modifier card played this round is listed with what it changed.
A menu entry unit:3(I14,7) is unit 3, an inf whose front-left base is at x 14, y 7.
Cards are the library's stand-in deck (RULES K1). The rules: docs/rules/maurice.md."""


def card_help() -> str:
    """Every card type with its span, copies and what it does (``maquis.maurice.CARDS``)."""
    return "\n".join(card_table(SCREEN_WIDTH))


class Game(TwoPlayerGame):
    """One terminal game of Maurice Lite (``maquis.common.two_player_play``)."""

    TITLE = "Maurice Lite"
    COMMAND = "maurice"
    PACKAGE = "maquis.maurice"
    AGENTS = "maquis.maurice.agents"
    SIDES = SIDES
    OPPONENTS = OPPONENTS
    HELP_TEXT = HELP_TEXT
    LEGAL_NUMBER_WIDTH = 4

    def __init__(self, side: str, opponent: str, seed: int | None, budget: int = 100, scenario: str = "standard",
                 out=print, ask=input, echo: bool = False):
        if scenario not in SCENARIOS:
            raise ValueError(f"unknown scenario {scenario!r}: expected one of {', '.join(SCENARIOS)}")
        super().__init__(side, opponent, seed, budget, {"scenario": scenario}, out, ask, echo)

    def game_title(self) -> str:
        return f"{self.TITLE} ({self.options['scenario']})"

    def help_lines(self) -> list[str]:
        return [HELP_TEXT, card_help()]

    def typed_action(self, text: str) -> str:
        # A menu entry as shown (`unit:3(I14,7)`) means its action.
        return text.split("(", 1)[0] if text.lower().startswith("unit:") else text

    def menu_names(self, legal: list[tuple[int, str]]) -> list[str]:
        """The names as the menu shows them: ``unit:<id>`` with the unit's type letter and cell."""
        sd = self.state()
        mover = self.env.agent_selection
        units = {u["id"]: u for u in (sd.get("units") or {}).get(mover) or ()}
        shown = []
        for _, name in legal:
            if name.startswith("unit:") and int(name[5:]) in units:
                u = units[int(name[5:])]
                name = f"{name}({UNIT_LETTERS.get(u['type'], '?')}{u['x']},{u['y']})"
            shown.append(name)
        return shown

    def step(self, index: int) -> None:
        self._before = self.state()  # the position the decision was taken in, for `narrate`
        super().step(index)

    def narrate(self, mover: str, name: str, dice_before: int) -> list[str]:
        # Every decision is public (RULES O1): cards are played and discarded face up. A modifier
        # card says what it does in this round's terms.
        dice = [f"  dice {r['event']}: {' '.join(map(str, r['dice']))}" for r in self.rolls(dice_before)]
        before = getattr(self, "_before", None) or {}
        if name.startswith("card:") and before.get("phase") in ("volley_modifier", "action_modifier"):
            return [f"{mover}: {name} ({modifier_effect(name[5:], mover, before.get('active'))})", *dice]
        return [f"{mover}: {name}", *dice]

    def screen(self) -> list[str]:
        """The lines shown before each decision: at most SCREEN_HEIGHT - 1 (the prompt is the
        last) of at most SCREEN_WIDTH characters, the position as the deciding side sees it."""
        legal = self.legal()
        names = self.menu_names(legal)
        title = [f"{self.env.agent_selection} to decide ({self.state().get('phase')}); legal actions ({len(legal)}):"]
        menu = self.menu(names)
        # The map as tall as the menu and a few lines of news leave room for.
        room = SCREEN_HEIGHT - 1 - len(self.banner) - len(title) - len(menu)
        room -= min(len(self.news), 3) + 1  # the compact view's outcome line
        lines = max(BOARD_LINES[0], min(BOARD_LINES[1] - 1, room))
        board = self.banner + render_compact(self.state(), SCREEN_WIDTH, lines, self.viewer()).splitlines()
        left = SCREEN_HEIGHT - 1 - len(board) - len(title)
        news = self.news_lines(left, len(menu))
        return board + news + title + self.menu(names, max(1, left - len(news)))

    @staticmethod
    def menu(names: list[str], max_lines: int | None = None) -> list[str]:
        """The grouped menu; the cells of a CinC's move (up to 1350, the last entries: their
        indices are the highest) are one line that says how to name one."""
        cells = [k for k, n in enumerate(names, 1) if n.startswith("cell:")]
        if not cells:
            return menu_lines(names, SCREEN_WIDTH, max_lines=max_lines)
        line = clip(f"{cells[0]}-{cells[-1]}. cell:<x>:<y>, {len(cells)} cells (type e.g. {names[cells[0] - 1]}; "
                    "`legal` lists them)", SCREEN_WIDTH)
        rest = names[: cells[0] - 1]
        if not rest:
            return [line]
        return menu_lines(rest, SCREEN_WIDTH, max_lines=None if max_lines is None else max(1, max_lines - 1)) + [line]

    def board_text(self) -> str:
        return render_ansi(self.state(), side=self.viewer())

    def save_text(self, side: str, full: bool) -> tuple[str, bool, str | None]:
        if full:
            return self.env.save_state(), True, f"It holds {other(side)}'s hand: draw it with --side {side} to keep that hidden."
        return json.dumps(side_view(self.state(), side), indent=1) + "\n", False, None

    def final_board(self, sd: dict) -> list[str]:
        viewer = self.humans[0] if len(self.humans) == 1 else None
        return render_compact(sd, SCREEN_WIDTH, BOARD_LINES[1] - 1, viewer).splitlines()

    def final_words(self, sd: dict) -> str:
        return f"{outcome_line(sd)}, round {sd.get('round')}"


def add_arguments(p: argparse.ArgumentParser) -> None:
    def scenario(q: argparse.ArgumentParser) -> None:
        q.add_argument("--scenario", choices=SCENARIOS, default="standard",
                       help="standard (15 units a side) or skirmish (7) (default: standard)")

    add_play_arguments(p, "maurice", SIDES, OPPONENTS, 100, scenario)


def run(args: argparse.Namespace) -> int:
    if args.budget < 1:
        print(f"maquis maurice play: --budget must be at least 1, got {args.budget}", file=sys.stderr)
        return 2
    return run_play(
        args, "maurice", lambda seed, echo: Game(args.side, args.opponent, seed, args.budget, args.scenario, echo=echo),
        SNAPSHOT.episode,
    )
