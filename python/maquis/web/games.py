"""The games the web app serves, behind one interface: a game's folder holds its `WebGame` (named by
its declaration's `web`, see `maquis.common.registry`), and nothing in the app, the pages or the
recordings names a game.

A `WebGame` says how to start a game, who decides, what is legal, how a bundled agent acts, what a
seat may see (`view`: the hidden information removed before anything is drawn or sent), how that
view is drawn (`scene`) and told (`narrate`), and how a recording of the game is read.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..common.drawing import Scene, Sketch

__all__ = ["GAMES", "SPECTATOR", "AECTable", "GameError", "GymTable", "Setting", "Table", "TwoPlayerWebGame", "WebGame", "game", "header_keywords", "text_scene"]

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


# -- The tables of one-seat and several-seat games ------------------------------------------------


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


class TwoPlayerWebGame(WebGame):
    """A game played on its package's AEC env (`raw_env()`, reset with the settings and the
    options) with its bundled agents (`make_agent(agent, seed=)` of the module `AGENTS`, relative
    to its package). A subclass says what a seat sees and how it is drawn and told."""

    #: The module of the game's package whose `make_agent` builds its bundled agents.
    AGENTS = "agents"

    def _package(self) -> str:
        from ..common.registry import game

        return game(self.name).package

    def start(self, settings, seed, options=None):
        import importlib

        env = importlib.import_module(self._package()).raw_env()
        env.reset(seed=seed, options={**dict(settings), **dict(options or {})} or None)
        return AECTable(self, env)

    def make_agent(self, agent, seed):
        import importlib

        return importlib.import_module(f"{self._package()}.{self.AGENTS}").make_agent(agent, seed=seed)

    def read_playthrough(self, header):
        reset = header_keywords(header.get("reset", ""))
        return {}, reset.get("seed"), reset.get("options")


def header_keywords(text: str) -> dict[str, Any]:
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
    """Every registered game's web adapter (its declaration's `web`), by key."""
    from ..common.registry import games, load

    return {spec.key: load(spec.web)() for spec in games()}


def __getattr__(name: str) -> Any:
    # `GAMES`, built on first use: a game's adapter module imports this one, so building it while
    # this module loads would import that adapter half-way.
    if name == "GAMES":
        return _served()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _served() -> dict[str, WebGame]:
    if "GAMES" not in globals():
        globals()["GAMES"] = _games()
    return globals()["GAMES"]


def game(name: Any) -> WebGame:
    games = _served()
    try:
        return games[name]
    except (KeyError, TypeError):
        raise GameError(f"unknown game {name!r}: expected one of {', '.join(games)}") from None
