"""The `maquis` command line as a whole: every game's verbs, the flags they share, and a help line
for every flag."""

from __future__ import annotations

import argparse

import pytest

from maquis.common.cli import GAMES, SHORT_FORMS, VERBS, build_parser
from maquis.cli import main


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def _walk(parser: argparse.ArgumentParser):
    yield parser
    for sub in _subparsers(parser).values():
        yield from _walk(sub)


def _flags(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {s: a for a in parser._actions for s in a.option_strings}


def _verb(game: str, verb: str) -> argparse.ArgumentParser:
    return _subparsers(_subparsers(build_parser())[game])[verb]


def test_every_flag_of_every_verb_of_every_game_has_a_help_line():
    missing = []
    for parser in _walk(build_parser()):
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{parser.prog}: {'/'.join(action.option_strings) or action.dest}")
    assert not missing, "flags without a help line:\n" + "\n".join(missing)


def test_every_game_lists_its_verbs_in_the_common_order():
    for name, game in GAMES.items():
        assert list(game.verbs) == [v for v in VERBS if v in game.verbs], name
        for verb in ("play", "eval", "bench", "render", "replay", "docs", "playthrough"):
            assert verb in game.verbs, f"{name} has no {verb}"


def test_short_forms_are_the_first_game():
    top = _subparsers(build_parser())
    assert set(GAMES[SHORT_FORMS].verbs) <= set(top)
    short = _flags(top["eval"])
    full = _flags(_verb(SHORT_FORMS, "eval"))
    assert sorted(short) == sorted(full)
    assert main(["maquis", "eval", "--agents", "random", "--difficulties", "easy", "--episodes", "2",
                 "--no-progress", "--json"]) == 0


@pytest.mark.parametrize("game", list(GAMES))
def test_shared_flags_have_one_name_and_default(game):
    ev = _flags(_verb(game, "eval"))
    assert ev["--episodes"].default == 1000
    assert ev["--seed"].default == 0
    assert ev["--json"].nargs == "?" and ev["--json"].const == "-" and ev["--json"].default is None
    for flag in ("--agents", "--policy", "--plot", "--no-progress"):
        assert flag in ev, f"{game} eval has no {flag}"
    render = _flags(_verb(game, "render"))
    assert render["-o"] is render["--output"] and render["--output"].default is None
    assert render["--text"].help.startswith("print the text view instead")
    assert render["--width"].default == 960
    replay = _flags(_verb(game, "replay"))
    assert replay["-o"] is replay["--output"] and replay["--output"].required
    bench = _flags(_verb(game, "bench"))
    assert bench["--json"].nargs == "?" and bench["--json"].const == "-"
    for flag in ("--quick", "--seconds", "--repeats", "--envs", "--threads"):
        assert flag in bench, f"{game} bench has no {flag}"
