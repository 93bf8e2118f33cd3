"""The reference pages (docs/<game>.md) are generated from the packages (`python -m maquis [<game>] docs`)
and must not drift."""

from __future__ import annotations

import difflib
import importlib
from pathlib import Path

import pytest

from maquis.cli import main

DOCS = Path(__file__).parents[1] / "docs"

# game: (its package, the docs command's words, a slice its page must describe)
GAMES = {
    "maquis": ("maquis", ["docs"], "peek"),
    "dday": ("maquis.dday", ["dday", "docs"], "pending"),
    "maurice": ("maquis.maurice", ["maurice", "docs"], "moving"),
}


@pytest.fixture(params=list(GAMES))
def game(request):
    package, command, slice_name = GAMES[request.param]
    return {
        "package": importlib.import_module(package),
        "docs": importlib.import_module(f"{package}.docs"),
        "page": DOCS / f"{request.param}.md",
        "command": command,
        "slice": slice_name,
    }


def test_reference_page_is_up_to_date(game):
    text = game["docs"].render()
    old = game["page"].read_text()
    if old != text:
        diff = "".join(difflib.unified_diff(old.splitlines(True), text.splitlines(True), str(game["page"]), "generated now"))
        command = " ".join(game["command"])
        pytest.fail(f"{game['page'].name} is out of date: python -m maquis {command} --output {game['page']}\n{diff}", pytrace=False)


def test_reference_page_names_every_action_and_slice(game):
    text = game["page"].read_text()
    for i, name in enumerate(game["package"].ACTION_NAMES):
        assert f"| {i} | `{name}` |" in text
    for name, off, length in game["package"].OBSERVATION_LAYOUT:
        assert f"| `{name}` | `[{off}:{off + length}]` | {length} |" in text


def test_a_slice_without_description_is_refused(game, monkeypatch):
    monkeypatch.delitem(game["docs"].SLICES, game["slice"])
    with pytest.raises(ValueError, match=game["slice"]):
        game["docs"].render()


def test_docs_command_check(game, tmp_path, capsys):
    assert main([*game["command"], "--check", str(game["page"])]) == 0
    stale = tmp_path / game["page"].name
    stale.write_text("old\n")
    assert main([*game["command"], "--check", str(stale)]) == 1
    assert "is out of date" in capsys.readouterr().err
    assert main([*game["command"], "--output", str(stale)]) == 0
    assert stale.read_text() == game["page"].read_text()
