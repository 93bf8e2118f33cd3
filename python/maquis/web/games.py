"""The games the web app serves, behind one interface: a new game needs one `WebGame` entry in
`GAMES` and nothing in the app, the pages or the recordings.

A `WebGame` says how to start a game, who decides, what is legal, how a bundled agent acts, what a
seat may see (`view`: the hidden information removed before anything is drawn or sent), how that
view is drawn (`scene`) and told (`narrate`), and how a recording of the game is read.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..common.drawing import Scene, Sketch

__all__ = ["GAMES", "SPECTATOR", "AECTable", "GameError", "GymTable", "Setting", "Table", "WebGame", "game"]

#: The viewer who is no side: sees what is public (what both sides see), no hand and no allocation.
SPECTATOR = "spectator"


class GameError(ValueError):
    """A request that does not fit the game (an unknown setting, side or agent)."""


@dataclass(frozen=True)
class Setting:
    """A choice made when a game starts, shown as a menu on the page."""

    name: str
    label: str
    choices: tuple[str, ...]
    default: str


@dataclass
class WebGame:
    """One game as the app sees it. Subclasses fill in the engine's parts."""

    name: str
    title: str
    seats: tuple[str, ...]  # the sides a person may play
    agents: tuple[str, ...]  # the bundled agents that play a side
    settings: tuple[Setting, ...] = ()
    episode_formats: tuple[str, ...] = ()  # the `format` tags of its recorded episodes
    playthrough_games: tuple[str, ...] = ()  # how its playthrough files' `game:` lines begin

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "seats": list(self.seats),
            "agents": list(self.agents),
            "settings": [
                {"name": s.name, "label": s.label, "choices": list(s.choices), "default": s.default}
                for s in self.settings
            ],
        }

    def check_settings(self, given: Mapping[str, Any] | None) -> dict[str, str]:
        """Every setting's value (its default when not given); GameError names a bad one."""
        given = dict(given or {})
        out = {}
        for s in self.settings:
            value = given.pop(s.name, s.default)
            if value not in s.choices:
                raise GameError(f"{s.name} must be one of {', '.join(s.choices)}, got {value!r}")
            out[s.name] = value
        if given:
            raise GameError(f"unknown setting {sorted(given)[0]!r} for {self.title}")
        return out

    def check_seat(self, seat: Any) -> str:
        if seat not in self.seats:
            raise GameError(f"side must be one of {', '.join(self.seats)}, got {seat!r}")
        return seat

    def check_agent(self, agent: Any) -> str:
        if agent not in self.agents:
            raise GameError(f"agent must be one of {', '.join(self.agents)}, got {agent!r}")
        return agent

    # -- the engine ---------------------------------------------------------------------------

    def start(self, settings: Mapping[str, Any], seed: int | None, options: Mapping | None = None) -> Table:
        raise NotImplementedError

    def make_agent(self, agent: str, seed: int | None) -> Any:
        raise NotImplementedError

    def view(self, state: Mapping[str, Any], seat: str | None) -> dict[str, Any]:
        """What `seat` may see of the full `state`: a seat's view, `SPECTATOR`'s (only what is
        public) or None's (everything but what the rules hide from both sides, such as the deck's
        order: for a finished recording, or agents alone on a deal nobody else can know)."""
        raise NotImplementedError

    def scene(self, view: Mapping[str, Any], seat: str | None) -> Scene:
        raise NotImplementedError

    def status(self, view: Mapping[str, Any]) -> list[str]:
        raise NotImplementedError

    def narrate(self, before: Mapping, after: Mapping, mover: str, name: str, seat: str | None) -> list[str]:
        """What one decision did, in words, from two views of `seat`."""
        raise NotImplementedError

    def action_text(self, mover: str, name: str, seat: str | None) -> str:
        """The decision as `seat` may hear of it."""
        return name if len(self.seats) == 1 else f"{mover}: {name}"

    def read_playthrough(self, header: Mapping[str, str]) -> tuple[dict, int | None, dict | None]:
        """(settings, seed, reset options) of a playthrough file's header."""
        raise NotImplementedError


class Table:
    """One game in progress: the engine, whose turn, the legal actions, a step."""

    def __init__(self, game: WebGame, env: Any, obs: Any = None) -> None:
        self.game, self.env, self.obs = game, env, obs

    def state(self) -> dict[str, Any]:
        return self.env.state_dict()

    def to_move(self) -> str | None:
        raise NotImplementedError

    def legal(self) -> list[int]:
        raise NotImplementedError

    def name(self, index: int) -> str:
        return self.env.action_to_str(int(index))

    def index(self, name: str) -> int:
        return int(self.env.action_from_str(str(name)))

    def step(self, index: int) -> None:
        raise NotImplementedError

    def agent_action(self, agent: Any) -> int:
        raise NotImplementedError


# -- Maquis -------------------------------------------------------------------------------------


class GymTable(Table):
    """A one-seat game on a Gymnasium env (`legal_actions()`, the observation kept from `step`)."""

    def to_move(self) -> str | None:
        return None if self.env.state_dict().get("outcome") is not None else self.game.seats[0]

    def legal(self) -> list[int]:
        return [int(a) for a in self.env.legal_actions()]

    def step(self, index: int) -> None:
        self.obs, *_ = self.env.step(int(index))

    def agent_action(self, agent: Any) -> int:
        import numpy as np

        mask = np.zeros(self.env.action_space.n, dtype=bool)
        mask[self.legal()] = True
        return int(agent.act(self.obs, mask))


class MaquisGame(WebGame):
    def start(self, settings, seed, options=None):
        from .. import MaquisEnv

        env = MaquisEnv(**dict(settings), illegal_action="raise")
        obs, _ = env.reset(seed=seed, options=dict(options) if options else None)
        return GymTable(self, env, obs)

    def make_agent(self, agent, seed):
        from ..agents import make_agent

        import secrets

        return make_agent(agent, seed=secrets.randbelow(2**31) if seed is None else seed)

    def view(self, state, seat):
        # The draw order of the patrol deck is hidden from everyone (the rules: all but the deck
        # order is public); its length stays, a peeked top card is in `peek`.
        out = copy.deepcopy(dict(state))
        out["patrol_deck"] = [None] * len(state.get("patrol_deck") or ())
        return out

    def scene(self, view, seat):
        from .. import render

        build = getattr(render, "scene", None)
        return build(view) if build else text_scene(self.status(view))

    def status(self, view):
        from ..playthrough import maquis_status

        return maquis_status(view)

    def narrate(self, before, after, mover, name, seat):
        from ..narrator import describe_changes

        return describe_changes(before, after, name)

    def read_playthrough(self, header):
        env = {} if header.get("env", "defaults") == "defaults" else _keywords(header.get("env", ""))
        reset = _keywords(header.get("reset", ""))
        return env, reset.get("seed"), reset.get("options")


# -- D-Day 1944 ---------------------------------------------------------------------------------


class AECTable(Table):
    """A game of several seats on a PettingZoo AEC env (`agent_selection`, `observe(side)`)."""

    def to_move(self) -> str | None:
        return None if self.env.state_dict().get("outcome") is not None else self.env.agent_selection

    def legal(self) -> list[int]:
        side = self.to_move()
        if side is None:
            return []
        return [int(i) for i in self.env.observe(side)["action_mask"].nonzero()[0]]

    def step(self, index: int) -> None:
        self.env.step(int(index))

    def agent_action(self, agent: Any) -> int:
        seen = self.env.observe(self.env.agent_selection)
        return int(agent.act(seen["observation"], seen["action_mask"]))


class DDayGame(WebGame):
    def start(self, settings, seed, options=None):
        from ..dday import raw_env

        env = raw_env()
        env.reset(seed=seed, options=dict(options) if options else None)
        return AECTable(self, env)

    def make_agent(self, agent, seed):
        from ..dday.opponents import make_agent

        return make_agent(agent, seed=seed)

    def view(self, state, seat):
        from ..dday.render import side_view

        # The German sees everything but future dice (O4); the Resistance loses the allocation of
        # the zones it has not attacked (O2), and so does a spectator (the Resistance has no secret).
        # A finished recording, or agents alone, watched by no side, show everything.
        if seat == SPECTATOR:
            return {**side_view(state, "resistance"), "viewer": SPECTATOR}
        return side_view(state, seat or "german")

    def scene(self, view, seat):
        from ..dday import render

        build = getattr(render, "scene", None)
        # The view is already the seat's: drawn as it is.
        return build(view, side=seat if seat in self.seats else None) if build else text_scene(self.status(view))

    def status(self, view):
        from ..dday.playthrough import status

        return status(view)

    def narrate(self, before, after, mover, name, seat):
        from ..dday.playthrough import events

        return events(before, after)

    def action_text(self, mover, name, seat):
        # Where the German put an item is his secret (G4): the Resistance hears only that he did.
        if name.startswith("allocate:") and seat in ("resistance", SPECTATOR):
            return f"{mover}: places an item (hidden)"
        return f"{mover}: {name}"

    def read_playthrough(self, header):
        reset = _keywords(header.get("reset", ""))
        return {}, reset.get("seed"), reset.get("options")


# -- Maurice Lite -------------------------------------------------------------------------------


class MauriceGame(WebGame):
    def start(self, settings, seed, options=None):
        from ..maurice import raw_env

        env = raw_env()
        env.reset(seed=seed, options={**dict(settings), **dict(options or {})})
        return AECTable(self, env)

    def make_agent(self, agent, seed):
        from ..maurice.agents import make_agent

        return make_agent(agent, seed=seed)

    def view(self, state, seat):
        from ..maurice.render import side_view

        # A seat sees its own hand only (O2), a spectator neither hand, nobody the deck's order
        # (O3, its size is public); a finished recording, or agents alone, watched by no side, show
        # both hands.
        if seat is None:
            out = copy.deepcopy(dict(state))
            out["deck"] = [None] * len(state.get("deck") or ())
            return out
        if seat == SPECTATOR:
            out = side_view(state, "blue")
            for key in ("hands", "drawn_this_round"):
                out[key] = {side: [None] * len(cards or ()) for side, cards in (out.get(key) or {}).items()}
            out["viewer"] = None  # drawn as nobody's side: both hands shown hidden
            return out
        return side_view(state, seat)

    def scene(self, view, seat):
        from ..maurice.render import scene

        return scene(view)

    def status(self, view):
        from ..maurice.playthrough import status

        return status(view)

    def narrate(self, before, after, mover, name, seat):
        from ..maurice.playthrough import events

        # Cards drawn are named only to their holder: the other seat (and a spectator) hears that
        # cards were drawn.
        lines = events(before, after)
        if seat is not None:
            for enemy in [s for s in self.seats if s != seat]:
                lines = [f"{enemy} draws cards" if line.startswith(f"{enemy} draws ") else line for line in lines]
        return lines

    def read_playthrough(self, header):
        reset = _keywords(header.get("reset", ""))
        return {}, reset.get("seed"), reset.get("options")


def _keywords(text: str) -> dict[str, Any]:
    """`a=1, b=['x']` (a playthrough header's keywords) as a dict of Python literals; ValueError
    when it is anything else (nothing in it is evaluated)."""
    if not text.strip():
        return {}
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            raise ValueError
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords if kw.arg}
    except (SyntaxError, ValueError) as err:
        raise ValueError(f"cannot read {text!r}: expected name=value pairs") from err


def text_scene(lines: Sequence[str]) -> Scene:
    """A plain board: the status lines as text (while a game has no scene builder)."""
    sketch = Sketch(960, 40 + 22 * len(lines), "#f4efe1", text_size=14)
    for k, line in enumerate(lines):
        sketch.text(16, 16 + 22 * k, line, "#222222")
    return sketch.scene()


def _games() -> dict[str, WebGame]:
    from ..common.single import BUNDLED_OPPONENTS
    from ..tables import DIFFICULTIES

    return {
        "maquis": MaquisGame(
            "maquis", "Maquis", ("player",), ("random", "heuristic", "search"),
            (Setting("difficulty", "Difficulty", tuple(DIFFICULTIES), "normal"),),
            ("maquis-episode",), ("maquis/",),
        ),
        "dday": DDayGame(
            "dday", "D-Day 1944", ("resistance", "german"), tuple(BUNDLED_OPPONENTS),
            (), ("maquis.dday1944-episode",), ("dday1944",),
        ),
        "maurice": MauriceGame(
            "maurice", "Maurice Lite", ("blue", "red"), ("random", "heuristic", "search"),
            (Setting("scenario", "Scenario", ("skirmish", "standard"), "skirmish"),),
            ("maquis.maurice-episode",), ("maurice_lite",),
        ),
    }


GAMES: dict[str, WebGame] = _games()


def game(name: Any) -> WebGame:
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise GameError(f"unknown game {name!r}: expected one of {', '.join(GAMES)}") from None
