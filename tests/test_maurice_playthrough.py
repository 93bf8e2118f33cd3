"""The golden Maurice Lite playthroughs (tests/playthroughs/maurice_*.txt): each game played now is
the file, byte for byte; regenerate them with `python -m maquis maurice playthrough --regenerate
tests/playthroughs` only when the rules or the agents changed on purpose."""

from __future__ import annotations

from pathlib import Path

import pytest

maurice = pytest.importorskip("maquis.maurice")
if not hasattr(maurice, "raw_env"):
    pytest.skip("maquis.maurice has no environments in this build", allow_module_level=True)

from maquis.cli import main  # noqa: E402
from maquis.maurice.playthrough import PLAYTHROUGHS, SCENARIOS, legal_words  # noqa: E402

FOLDER = Path(__file__).parent / "playthroughs"


@pytest.mark.parametrize("name", [s.name for s in SCENARIOS])
def test_playthrough_is_unchanged(name):
    diff = PLAYTHROUGHS.diff(name, FOLDER)
    assert not diff, (
        f"{name} differs from {FOLDER / (name + '.txt')}; if the change is intended, regenerate with "
        f"`python -m maquis maurice playthrough --regenerate tests/playthroughs`\n{diff[:4000]}"
    )


def test_every_maurice_file_has_a_scenario():
    assert {p.stem for p in FOLDER.glob("maurice_*.txt")} == {s.name for s in SCENARIOS}


def test_a_playthrough_tells_the_game():
    text = (FOLDER / "maurice_skirmish_random_vs_heuristic_scripted.txt").read_text()
    head, _, rest = text.partition("\n\n")
    assert "game: maurice_lite_v0 (maquis.maurice.raw_env)" in head
    assert "'first': 'red'" in head and "'dice': [6, 5, 4, 3, 2, 1, 6, 6, 1, 1]" in head
    first = rest.split("\n## decision 2", 1)[0]
    assert "round 1 red active" in first and "action: red: " in first
    ending = text.split("## end", 1)[1]
    assert "outcome: " in ending and "  blue: " in ending and "  red: " in ending


def test_cells_are_counted_not_listed():
    assert legal_words(["decline", "cell:1:2", "cell:3:4"]) == ["decline", "cell:<x>:<y> x2"]


def test_the_command_checks_and_lists(tmp_path, capsys):
    assert main(["maurice", "playthrough", "--check", str(FOLDER)]) == 0
    assert f"{len(SCENARIOS)} of {len(SCENARIOS)} playthroughs unchanged" in capsys.readouterr().err
    (tmp_path / f"{SCENARIOS[0].name}.txt").write_text("old\n")
    assert main(["maurice", "playthrough", "--check", str(tmp_path)]) == 1
    assert main(["maurice", "playthrough"]) == 0
    assert SCENARIOS[0].name in capsys.readouterr().out
