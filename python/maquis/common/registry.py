"""The games of the package, each declared once: `python/maquis/<game>/game.py` holds
`GAME = GameSpec(...)`, and the package's `GAMES` tuple lists the game packages. The command line,
`maquis serve`, save loading, Gymnasium registration, the docs and the evaluation loops read
`games()` / `game(key)` and name no game themselves.

A declaration is cheap: strings "module:attr" for everything that loads (an env class, a verb's
module, a renderer), so that reading every game's declaration imports none of them. It is read
without importing the game's package (whose `__init__` loads its envs).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["GameSpec", "Keyword", "SaveKinds", "SERVE", "VERBS", "Verb", "two_player_verbs", "VECTOR_KEYWORDS", "games", "game", "load", "short_form_game"]


@dataclass(frozen=True)
class Keyword:
    """A constructor keyword of a game's envs: its name, default, one-line doc and the annotation
    of the generated `__init__`'s parameter (`maquis.common.keywords`)."""

    name: str
    default: Any
    doc: str
    annotation: str = "Any"


@dataclass(frozen=True)
class Verb:
    """A verb of a game's command line: the module that implements it, its one-line help, and the
    names of its two functions there (`add(parser)`, `run(args) -> int`; a dotted name reaches
    into the module, e.g. `VERBS.run_render`, a method of a configured object)."""

    module: str
    help: str
    add: str = "add_arguments"
    run: str = "run"


@dataclass(frozen=True)
class SaveKinds:
    """How a saved file of the game is recognised: the `format` tags of its `save_state()` (a
    position), of its env's `save()` (a position with the env's settings and streams) and of its
    recorded episodes (`play --record`), and the keys only its `state_dict()` has."""

    state_formats: tuple[str, ...]
    env_formats: tuple[str, ...]
    episode_formats: tuple[str, ...]
    state_keys: tuple[str, ...]


#: Every verb a game may have, in the order the command line lists them.
VERBS = ("play", "eval", "ladder", "rate", "exploit", "bench", "render", "replay", "docs", "playthrough", "train", "serve")

#: `maquis serve` (also `maquis <game> serve`): one web app serves every game.
SERVE = Verb("maquis.web.cli", "play and watch the games in a browser (a local web app; needs maquis[web])")

def two_player_verbs(package: str, docs_page: str, **more: Verb) -> dict[str, Verb]:
    """The verbs every two-player game has, from its modules' usual names in `package` (`play`,
    `evaluation`, `tournament` with its `EXPLOIT`, `bench`, `snapshot` with its `VERBS`, `docs`,
    `playthrough`), with `more` (e.g. its `train`), in the order of `VERBS`."""
    verbs = {
        "play": Verb(f"{package}.play", "play against a bundled opponent in the terminal, or hot-seat"),
        "eval": Verb(f"{package}.evaluation", "evaluate agents or saved policies per side and opponent"),
        "ladder": Verb(f"{package}.tournament", "rate agents: round robin on duplicate deals, Bradley-Terry Elo"),
        "rate": Verb(f"{package}.tournament", "rate your policy on the ladder's scale, or --sprt it against a level",
                     "add_rate_arguments", "run_rate"),
        "exploit": Verb(f"{package}.tournament", "train a PPO best response to a level: a bound on its "
                        "exploitability (needs torch)", "EXPLOIT.add_arguments", "EXPLOIT.run"),
        "bench": Verb(f"{package}.bench", "measure engine and vector-env throughput"),
        "render": Verb(f"{package}.snapshot", "write a PNG (or print the text view) of a saved position",
                       "VERBS.add_render_arguments", "VERBS.run_render"),
        "replay": Verb(f"{package}.snapshot", "turn a recorded episode into PNG frames or a GIF",
                       "VERBS.add_replay_arguments", "VERBS.run_replay"),
        "docs": Verb(f"{package}.docs", f"write or check {docs_page}, the environment's reference page"),
        "playthrough": Verb(f"{package}.playthrough", "print, check or regenerate the golden playthroughs"),
        "serve": SERVE,
        **more,
    }
    return {name: verbs[name] for name in VERBS if name in verbs}


#: The keywords every native vector env takes before its game's own (the single env's).
VECTOR_KEYWORDS: tuple[Keyword, ...] = (
    Keyword("num_envs", 1, "the number of games stepped side by side", "int"),
    Keyword("num_threads", None, "threads stepping them (default: all cores, at most one a game)", "int | None"),
    Keyword("autoreset_mode", "NextStep", "Gymnasium's autoreset mode (next step, same step or disabled)", "AutoresetMode | str"),
    Keyword("copy", True, "return copies of the observation buffers (False: views, overwritten by the next step)", "bool"),
)


@dataclass(frozen=True)
class GameSpec:
    """One game, as every shared layer sees it. `key` is its package (`maquis.<key>`) and its
    command-line name (`maquis <key> <verb>`); the "module:attr" strings load on first use."""

    key: str
    title: str
    description: str  # the command line's line about it
    gym_id: str  # its Gymnasium id (`gymnasium.make`, `gymnasium.make_vec`)
    single_env: str  # "module:Class" of its `gymnasium.Env`
    vector_env: str  # "module:Class" of its native `gymnasium.vector.VectorEnv`
    keywords: tuple[Keyword, ...]  # its envs' constructor keywords (the vector env's after VECTOR_KEYWORDS)
    verbs: Mapping[str, Verb]  # `maquis <key> <verb>`, in the order the command line lists them
    saves: SaveKinds
    renderers: Mapping[str, str]  # render mode -> "module:function" drawing a state_dict
    web: str  # "module:attr" of a zero-argument callable giving its `maquis.web.games.WebGame`
    agents: str  # "module:attr" of the names of its bundled agents
    levels: str  # "module:attr" of the levels its ladder and `rate` play (difficulties or opponents)
    docs_page: str  # its generated reference page, relative to the repository
    policy_loader: str  # "module:function" loading a saved `.npz` policy with its spaces checked
    playthroughs: str  # "module:attr" of its golden playthroughs (a `maquis.common.playthrough.Playthroughs`)
    aec_env: str | None = None  # "module:function" of its PettingZoo AEC env (two-player games)
    parallel_env: str | None = None  # "module:function" of its PettingZoo parallel env, if any
    short_form: bool = False  # `maquis <verb>` is short for `maquis <key> <verb>`
    package: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "package", f"{_root()}.{self.key}")

    def command(self, verb: str) -> str:
        """How a user types `verb` of this game."""
        return f"maquis {verb}" if self.short_form else f"maquis {self.key} {verb}"

    def lazy_targets(self) -> dict[str, str]:
        """Every "module:attr" the declaration names, by what it is."""
        targets = {"single_env": self.single_env, "vector_env": self.vector_env, "web": self.web,
                   "policy_loader": self.policy_loader, "agents": self.agents, "levels": self.levels,
                   "playthroughs": self.playthroughs,
                   **{f"renderer {mode}": target for mode, target in self.renderers.items()}}
        for name in ("aec_env", "parallel_env"):
            if getattr(self, name) is not None:
                targets[name] = getattr(self, name)
        return targets


def load(target: str) -> Any:
    """The object of a "module:attr" string (a dotted attr reaches into the module)."""
    module, _, attribute = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in filter(None, attribute.split(".")):
        obj = getattr(obj, part)
    return obj


def _root() -> str:
    return __name__.split(".", 1)[0]


def game(key: str) -> GameSpec:
    """The declaration of the game `key` (one of the package's `GAMES`); a ValueError naming the
    games for any other key."""
    keys = _keys()
    if key not in keys:
        raise ValueError(f"unknown game {key!r}: the games are {', '.join(keys)}")
    return _spec(key)


def games() -> tuple[GameSpec, ...]:
    """Every game's declaration, in the order of the package's `GAMES`."""
    return tuple(_spec(key) for key in _keys())


def short_form_game() -> GameSpec:
    """The game whose verbs `maquis <verb>` runs."""
    return next(g for g in games() if g.short_form)


def _keys() -> tuple[str, ...]:
    return tuple(importlib.import_module(_root()).GAMES)


@functools.cache
def _spec(key: str) -> GameSpec:
    # `<root>.<key>.game`, executed without its package's `__init__` (which loads the envs); an
    # import of the package later finds the module already there.
    name = f"{_root()}.{key}.game"
    module = sys.modules.get(name)
    if module is None:
        path = Path(importlib.import_module(_root()).__file__).parent / key / "game.py"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"game {key!r} has no declaration at {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    spec_obj = getattr(module, "GAME", None)
    if not isinstance(spec_obj, GameSpec) or spec_obj.key != key:
        raise ImportError(f"{name} must declare GAME = GameSpec(key={key!r}, ...)")
    return spec_obj
