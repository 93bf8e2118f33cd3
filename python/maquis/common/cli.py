"""The `maquis` command line, written once for every game: `maquis <game> <verb> …`.

`GAMES` maps a game's key to its declaration (`maquis.common.registry`), whose `verbs` name the
modules of its verbs; each verb module defines `add_arguments(parser)` and `run(args) -> int` (or
`add_<verb>_arguments` / `run_<verb>` where one module serves two verbs). A new game declares its
verbs in its own `game.py`. `maquis <verb>` is the short form of the game declared `short_form`.

The flags that mean the same in every game are added here (`add_episodes`, `add_json`, …), so that
their names, defaults and help lines cannot drift apart between games.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .registry import VERBS, GameSpec, Verb, games, short_form_game  # noqa: F401 - VERBS, Verb: names of this module

PROG = __name__.split(".", 1)[0]  # the command is the package's name



# The games and their verbs, from each game's declaration (`maquis.common.registry`).
GAMES: dict[str, GameSpec] = {game.key: game for game in games()}

SHORT_FORMS = short_form_game().key  # `maquis <verb>` is `maquis <SHORT_FORMS> <verb>`


# -- Flags shared by every game ---------------------------------------------------------------------


def add_episodes(p: argparse.ArgumentParser, per: str = "per group") -> None:
    p.add_argument("--episodes", type=int, default=1000, metavar="N", help=f"games {per} (default 1000)")


def add_seed(p: argparse.ArgumentParser, what: str = "the first game's seed") -> None:
    p.add_argument("--seed", type=int, default=0, metavar="S", help=f"{what} (default 0)")


def add_json(p: argparse.ArgumentParser, what: str = "the results") -> None:
    p.add_argument(
        "--json", nargs="?", const="-", default=None, metavar="FILE",
        help=f"{what} as JSON: alone, printed instead of the table; with FILE, written there",
    )


def write_json(data: Any, dest: str) -> None:
    """`--json [FILE]`: `-` (the flag alone) prints `data` (or its `to_dict()`) as JSON on stdout,
    a path writes it there."""
    if hasattr(data, "to_dict"):
        data = data.to_dict()
    text = json.dumps(data, indent=2) + "\n"
    if dest == "-":
        sys.stdout.write(text)
        return
    with open(dest, "w") as f:
        f.write(text)


def add_output(p: argparse.ArgumentParser, metavar: str, help: str, required: bool = False) -> None:
    p.add_argument("-o", "--output", metavar=metavar, required=required, help=help)


def add_text(p: argparse.ArgumentParser) -> None:
    p.add_argument("--text", action="store_true", help="print the text view instead of writing a picture")


def add_side(
    p: argparse.ArgumentParser, choices: Sequence[str], default: str | None, help: str, aliases: Sequence[str] = ()
) -> None:
    p.add_argument("--side", *aliases, dest="side", choices=tuple(choices), default=default, help=help)


def add_threads(p: argparse.ArgumentParser, help: str = "threads stepping the games (default: all cores)") -> None:
    p.add_argument("--threads", type=int, default=None, metavar="N", help=help)


def add_num_envs(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--num-envs", type=int, default=None, metavar="N",
        help="environments played side by side (default: min(episodes, 64)); results depend on it",
    )


def add_no_progress(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-progress", action="store_true", help="no progress bar (none is drawn when stderr is not a terminal)"
    )


def add_plot(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plot", metavar="PNG", default=None, help="also write a bar chart of the outcome rates")


def positive(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type: a number of `kind` above zero."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
        return value

    parse.__name__ = kind.__name__
    return parse


def int_list(text: str) -> list[int]:
    """An argparse type: comma-separated positive integers."""
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


BENCH_ENVS = (1, 64, 1024, 4096)
BENCH_THREADS = (1, 2)


def add_bench_arguments(p: argparse.ArgumentParser) -> None:
    """The flags of every game's `bench` (read the defaults with `bench_settings`)."""
    p.add_argument("--quick", action="store_true", help="tiny measurements only (seconds, for tests)")
    p.add_argument("--repeats", type=positive(int), default=None, metavar="N",
                   help="timed repeats per figure; the median is reported (default 5, --quick 1)")
    p.add_argument("--seconds", type=positive(float), default=None, metavar="S",
                   help="length of one repeat (default 0.5, --quick 0.02)")
    p.add_argument("--envs", type=int_list, default=None, metavar="N,N",
                   help="vector sizes (default " + ",".join(map(str, BENCH_ENVS)) + "; --quick 1,64)")
    p.add_argument("--threads", type=int_list, default=None, metavar="N,N",
                   help="vector thread counts (default " + ",".join(map(str, BENCH_THREADS)) + "; --quick 1)")
    add_json(p, "the figures")


def bench_settings(args: argparse.Namespace) -> dict[str, Any]:
    """repeats, seconds, envs and threads of a `bench` command, defaults filled in."""
    quick = args.quick
    return {
        "repeats": args.repeats or (1 if quick else 5),
        "seconds": args.seconds or (0.02 if quick else 0.5),
        "envs": args.envs or ([1, 64] if quick else list(BENCH_ENVS)),
        "threads": args.threads or ([1] if quick else list(BENCH_THREADS)),
        "quick": quick,
    }


def comma_list(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


# -- The parser -------------------------------------------------------------------------------------


def _verb_functions(spec: Verb) -> tuple[Callable | None, Callable | str]:
    """(add_arguments, run) of a verb, or (None, why) when its module is not available."""
    try:
        mod = importlib.import_module(spec.module)
    except ImportError as e:  # a missing optional dependency, or a game left out of this build
        return None, f"{spec.module} cannot be imported ({e})"
    # A dotted name reaches into the module (`VERBS.run_render`: a method of a configured object).
    add, run = (functools.reduce(lambda o, n: getattr(o, n, None), name.split("."), mod) for name in (spec.add, spec.run))
    if add is None or run is None:
        return None, f"{spec.module} defines no {spec.add}/{spec.run}"
    return add, run


def add_verbs(sub: Any, game: str, prog: str) -> None:
    """One subparser per verb of `game`, each filled by its module."""
    for verb, spec in GAMES[game].verbs.items():
        add, run = _verb_functions(spec)
        help_text = spec.help.replace("%", "%%")
        if add is None:
            # Listed with a note; the other verbs keep working.
            p = sub.add_parser(verb, help=f"{help_text} [unavailable]", description=f"unavailable: {run}")
            p.set_defaults(_run=lambda args, why=run, cmd=f"{prog} {verb}": _unavailable(cmd, why), _unavailable=True)
            continue
        p = sub.add_parser(verb, help=help_text, description=spec.help)
        add(p)
        p.set_defaults(_run=run, _parser=p)


def build_parser(full: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The `maquis` parser. The verbs of the games in `full` (default: all) are filled in; the
    others are listed by name only, so that a command imports no more than its own game."""
    full = tuple(GAMES) if full is None else tuple(full)
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Fast RL environments of board games: " + ", ".join(g.title for g in GAMES.values())
        + f". `maquis <verb>` is short for `maquis {SHORT_FORMS} <verb>`.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="{" + ",".join([*GAMES[SHORT_FORMS].verbs, *GAMES]) + "}")
    add_verbs(sub, SHORT_FORMS, PROG)
    for name, game in GAMES.items():
        g = sub.add_parser(name, help=f"{game.description}: " + ", ".join(game.verbs), description=game.description)
        if name in full:
            add_verbs(g.add_subparsers(dest="verb", required=True, metavar="{" + ",".join(game.verbs) + "}"), name, f"{PROG} {name}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    first = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser([first] if first in GAMES else [])
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "_unavailable", False):
        getattr(args, "_parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    return int(args._run(args) or 0)


def _unavailable(command: str, why: str) -> int:
    print(f"{command}: not available in this installation: {why}", file=sys.stderr)
    return 2
