"""The golden playthroughs (tests/playthroughs/*.txt): every game played again and diffed.

A failure shows the unified diff between the file and the game played now. If the change of
behaviour is intended, regenerate the files and review the diff in the commit:

    python -m maquis playthrough --regenerate tests/playthroughs
"""

from __future__ import annotations

from pathlib import Path

import pytest

from maquis import playthrough
from maquis.cli import main

DIR = Path(__file__).parent / "playthroughs"
SHOWN = 200  # diff lines shown in a failure


@pytest.mark.parametrize("name", list(playthrough.SCENARIOS))
def test_playthrough_unchanged(name):
    diff = playthrough.diff(name, DIR)
    if diff:
        lines = diff.splitlines(keepends=True)
        if len(lines) > SHOWN:  # a change early in a game changes the rest of it
            more = f"... {len(lines) - SHOWN} more lines: python -m maquis playthrough --check tests/playthroughs\n"
            diff = "".join(lines[:SHOWN]) + more
        pytest.fail(
            f"the game {name} no longer plays as tests/playthroughs/{name}.txt records "
            f"(regenerate with `python -m maquis playthrough --regenerate tests/playthroughs` "
            f"if the change is intended):\n{diff}",
            pytrace=False,
        )


def test_playthrough_files_are_the_scenarios():
    assert sorted(p.stem for p in DIR.glob("*.txt")) == sorted(playthrough.SCENARIOS)


def test_playthroughs_cover_every_difficulty_and_both_agents():
    scenarios = [s for s in playthrough.SCENARIOS.values() if s.game == "maquis"]
    assert {s.env.get("difficulty") for s in scenarios} >= {
        "very_easy", "easy", "normal", "tricky", "hard", "very_hard"
    }
    assert {s.agent for s in scenarios} == {"heuristic", "random"}


def test_playthroughs_deal_every_mission():
    import maquis

    ids = set()
    for path in (DIR / f"{s.name}.txt" for s in playthrough.SCENARIOS.values() if s.game == "maquis"):
        line = next(x for x in path.read_text().splitlines() if x.startswith("missions: "))
        ids.update(m.split(" (")[0] for m in line.removeprefix("missions: ").split(", "))
    per_slot = dict((n, length) for n, _, length in maquis.OBSERVATION_LAYOUT)["mission_a_id"]
    assert len(ids) == per_slot == 18


def test_a_trace_records_each_decision_and_the_outcome():
    text = (DIR / "normal_random_assassination_milice_hq.txt").read_text()
    decisions = text.count("\n## decision ")
    assert decisions == text.count("\naction: ") > 0
    assert f"after {decisions} decisions" in text.split("## end", 1)[1]


def test_format_trace_is_game_agnostic():
    text = playthrough.format_trace(
        {"playthrough": "toy"},
        [playthrough.Decision(["turn 1"], ["left", "right"], "left", ["moved left"])],
        ["outcome: done"],
    )
    assert text == (
        "playthrough: toy\n\n## decision 1\nturn 1\nlegal (2): left right\naction: left\n"
        "  > moved left\n\n## end\noutcome: done\n"
    )


def test_check_command_reports_a_changed_file(tmp_path, capsys):
    assert main(["playthrough", "--check", str(DIR)]) == 0
    assert main(["playthrough", "--regenerate", str(tmp_path)]) == 0
    path = tmp_path / "normal_random_assassination_milice_hq.txt"
    path.write_text(path.read_text().replace("action: ", "action: x", 1))
    capsys.readouterr()
    assert main(["playthrough", "--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "-action: xplace:" in out and "+action: place:" in out


def test_unknown_playthrough_is_refused(capsys):
    assert main(["playthrough", "no_such_game"]) == 2
    assert "unknown playthrough 'no_such_game'" in capsys.readouterr().err


def test_dday_traces_show_the_decider_the_legal_names_the_dice_and_the_end():
    names = [s.name for s in playthrough.SCENARIOS.values() if s.game == "dday"]
    assert len(names) >= 3
    agents = set()
    for name in names:
        text = (DIR / f"{name}.txt").read_text()
        head = dict(line.split(": ", 1) for line in text.split("\n\n", 1)[0].splitlines())
        agents |= {head["resistance"].split()[0], head["german"].split()[0]}
        decisions = text.count("\n## decision ")
        assert decisions == text.count("\naction: resistance: ") + text.count("\naction: german: ") > 0
        assert "\nlegal (" in text and "  > dice " in text
        end = text.split("## end", 1)[1]
        assert f"after {decisions} decisions" in end and "outcome: " in end
    assert agents == {"random", "heuristic", "search"}


def test_each_game_has_its_own_playthrough_command(tmp_path, capsys):
    import argparse

    from maquis.dday import playthrough as dday_playthrough

    assert set(dday_playthrough.PLAYTHROUGHS.scenarios) == {
        s.name for s in playthrough.SCENARIOS.values() if s.game == "dday"
    }
    parser = argparse.ArgumentParser()
    dday_playthrough.add_arguments(parser)
    assert dday_playthrough.run(parser.parse_args(["--check", str(DIR)])) == 0
    assert "4 of 4 playthroughs unchanged" in capsys.readouterr().err
    assert dday_playthrough.run(parser.parse_args(["dday_heuristic_vs_heuristic"])) == 0
    assert capsys.readouterr().out == (DIR / "dday_heuristic_vs_heuristic.txt").read_text()
    assert main(["dday", "playthrough", "-o", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(f"{name}.txt" for name in dday_playthrough.PLAYTHROUGHS.scenarios)
    assert all((tmp_path / name).read_bytes() == (DIR / name).read_bytes() for name in written)
