"""`maquis.maurice.evaluate` and `maquis maurice eval` (docs/api/maurice.md "Agents and
evaluation"): per learner side and opponent, win/draw/loss rates with 95% intervals, the mean
game length in rounds and the mean morale margin."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import maquis.maurice as maurice  # noqa: E402
from maquis.common.evaluation import wilson_interval  # noqa: E402
from maquis.maurice import evaluation  # noqa: E402


class FirstLegal:
    name = "first"

    def act(self, obs, mask):
        assert obs.shape == (21334,)
        return int(np.flatnonzero(mask)[0])


def test_table_per_side_and_opponent():
    r = maurice.evaluate(FirstLegal(), side="both", opponents=("random",), episodes=2, seed=3)
    assert [(row.side, row.opponent) for row in r.rows] == [("blue", "random"), ("red", "random")]
    for row in r.rows:
        assert row.policy == "first" and row.episodes == 2 and sum(row.counts.values()) == 2
        assert row.mean_rounds >= 1 and -1 <= row.mean_morale_margin <= 1
        assert row.interval("win") == wilson_interval(row.counts["win"], 2)
    text = r.to_text()
    assert "rounds" in text and "morale" in text and "blue" in text and "red" in text
    d = json.loads(r.to_json())
    assert d["seed"] == 3 and d["settings"]["scenario"] == "standard" and set(d["rows"][0]["ci95"]) == {"win", "draw", "loss"}
    assert r.row("red", "random") is r.rows[1]


def test_deterministic_for_a_seed_and_bundled_ids():
    a = maurice.evaluate("heuristic", side="red", opponents=("random",), scenario="skirmish", episodes=2, seed=1)
    b = maurice.evaluate("heuristic", side="red", opponents=("random",), scenario="skirmish", episodes=2, seed=1)
    assert a.to_dict() == b.to_dict() and a.rows[0].policy == "heuristic"


def test_bad_arguments():
    for kw in ({"side": "green"}, {"opponents": ("grandmaster",)}, {"episodes": 0}):
        with pytest.raises(ValueError):
            maurice.evaluate("random", **kw)
    with pytest.raises(TypeError):
        maurice.evaluate(object(), episodes=1)
    with pytest.raises(ValueError):
        maurice.evaluate("grandmaster", episodes=1)


def parse(argv):
    p = argparse.ArgumentParser()
    evaluation.add_arguments(p)
    return p.parse_args(argv)


def test_eval_verb_json_and_table(capsys, tmp_path):
    args = parse(["--agents", "random", "--opponents", "random", "--episodes", "1", "--side", "blue", "--json",
                  "--no-progress"])
    assert evaluation.run(args) == 0
    d = json.loads(capsys.readouterr().out)
    assert [(r["policy"], r["side"], r["opponent"]) for r in d["rows"]] == [("random", "blue", "random")]
    out = tmp_path / "e.json"
    args = parse(["--agents", "random", "--opponents", "random", "--episodes", "1", "--scenario", "skirmish",
                  "--json", str(out), "--no-progress"])
    assert evaluation.run(args) == 0
    text = capsys.readouterr().out
    assert "blue" in text and "red" in text and json.loads(out.read_text())["settings"]["scenario"] == "skirmish"
    assert evaluation.run(parse(["--agents", "grandmaster", "--no-progress"])) == 2
    assert "grandmaster" in capsys.readouterr().err
