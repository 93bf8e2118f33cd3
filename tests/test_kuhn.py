"""Kuhn poker's Python side, what is its own (the shared behaviour is tests/test_conformance.py's):
Gymnasium's check_env, PettingZoo's api_test and seed_test, the exact exploit values, what a side
sees, every CLI verb's help and a short run of each, the reference page, and the web entry."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import maquis
import maquis.kuhn as kuhn
from maquis.cli import main

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402


def test_check_env_and_the_gym_id():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    for side in kuhn.SIDES:
        check_env(kuhn.KuhnEnv(side=side), skip_render_check=True)
    env = gymnasium.make("maquis/KuhnPoker-v0", side="second", opponent="random")
    env.reset(seed=0)
    assert isinstance(env.unwrapped, kuhn.KuhnEnv) and env.unwrapped.side == "second"
    venv = gymnasium.make_vec("maquis/KuhnPoker-v0", num_envs=4, vectorization_mode="vector_entry_point")
    assert venv.reset(seed=0)[0].shape == (4, kuhn.OBSERVATION_SIZE)


def test_pettingzoo_api_and_seed_tests():
    api_test(kuhn.env(), num_cycles=300)
    api_test(kuhn.raw_env(), num_cycles=300)
    seed_test(kuhn.env, num_cycles=300)


def test_rewards_are_the_payoff_over_two_by_default_and_a_table_on_request():
    env = kuhn.KuhnEnv(side="first", opponent="heuristic")
    env.reset(seed=0, options={"cards": ["K", "J"]})
    _, reward, done, _, info = env.step(kuhn.action_from_str("bet"))
    assert done and reward == info["payoff"]["first"] / 2 and info["outcome"] == "win"
    env = kuhn.KuhnEnv(reward={"win": 3.0, "loss": -3.0}, opponent="random")
    env.reset(seed=1, options={"cards": ["J", "K"]})
    _, reward, done, _, info = env.step(kuhn.action_from_str("pass"))
    while not done:
        _, reward, done, _, info = env.step(kuhn.action_from_str("pass"))
    assert reward == (3.0 if info["outcome"] == "win" else -3.0)
    with pytest.raises(ValueError, match="no draw"):
        kuhn.KuhnEnv(reward={"draw": 0.0})
    with pytest.raises(ValueError, match="'random', 'heuristic'"):
        kuhn.KuhnEnv(opponent="search")


def test_an_object_opponent_plays_from_python():
    class AlwaysBet:
        def act(self, obs, mask):
            assert obs.shape == (kuhn.OBSERVATION_SIZE,) and mask.tolist() == [1, 1]
            return 1

    env = kuhn.KuhnEnv(side="second", opponent=AlwaysBet())
    obs, info = env.reset(seed=0, options={"cards": ["J", "Q"]})  # first bets: second faces a bet
    _, reward, done, _, info = env.step(kuhn.action_from_str("bet"))
    assert done and info["payoff"] == {"first": -2, "second": 2} and reward == 1.0


def test_a_side_never_sees_the_other_card():
    aec = kuhn.raw_env()
    for seed in range(12):
        aec.reset(seed=seed)
        seen = {side: aec.observe(side)["observation"].copy() for side in kuhn.SIDES}
        other = kuhn.raw_env()
        sd = aec.state_dict()
        # Deal the other side a different card: this side's observation does not change (O1).
        for side, opp in (("first", "second"), ("second", "first")):
            spare = next(c for c in kuhn.CARDS if c not in sd["cards"].values())
            cards = dict(sd["cards"], **{opp: spare})
            other.reset(seed=0, options={"cards": [cards["first"], cards["second"]]})
            np.testing.assert_array_equal(other.observe(side)["observation"], seen[side])
    from maquis.kuhn.render import render_ansi, side_view

    view = side_view(aec.state_dict(), "first")
    assert view["cards"]["second"] is None and "card ?" in render_ansi(view)


# -- the exact best response ----------------------------------------------------------------------


def test_exploit_values_against_the_levels():
    r = kuhn.exploit(level="heuristic")
    assert r["value"]["first"] == pytest.approx(-1 / 18, abs=1e-12)
    assert r["value"]["second"] == pytest.approx(1 / 18, abs=1e-12)
    assert r["exploitability"] == pytest.approx(0.0, abs=1e-12)
    r = kuhn.exploit(level="random")
    assert r["exploitability"] == pytest.approx(11 / 24, abs=1e-12)
    assert r["value"] == pytest.approx({"first": 0.5, "second": 5 / 12})
    with pytest.raises(ValueError, match="levels are random, heuristic"):
        kuhn.exploit(level="search")
    with pytest.raises(ValueError, match="exactly one"):
        kuhn.exploit(level="random", strategy={})


class EquilibriumPolicy:
    """A user's policy: plays the pure part of the alpha = 0 equilibrium (bet K, call with K)."""

    def act(self, obs, mask):
        card = kuhn.CARDS[int(np.argmax(obs[2:5]))]
        return int(card == "K")


def test_exploit_reads_a_policy_at_every_information_set(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))  # `tests.test_kuhn` importable however pytest was started
    strategy = kuhn.exploit(policy=EquilibriumPolicy())["strategy"]
    assert strategy == {i: float(i.startswith("K")) for i in kuhn.INFOSETS}
    r = kuhn.exploit(policy="tests.test_kuhn:EquilibriumPolicy")
    assert r["exploitability"] == pytest.approx(kuhn.best_response(strategy)[0])
    assert r["exploitability"] > 0  # never bluffing with J is exploitable


def test_exploit_command(tmp_path, capsys):
    assert main(["kuhn", "exploit", "--level", "heuristic", "--side", "first"]) == 0
    out = capsys.readouterr().out
    assert "as first  -0.0556  (-1/18)" in out and "exploitability" in out
    assert main(["kuhn", "exploit", "--level", "random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exploitability"] == pytest.approx(11 / 24) and set(data["best_response"]) == set(kuhn.INFOSETS)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(kuhn.equilibrium(0.2)))
    assert main(["kuhn", "exploit", "--strategy", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exploitability"] == pytest.approx(0.0, abs=1e-12)
    path.write_text("[1, 2]")
    assert main(["kuhn", "exploit", "--strategy", str(path)]) == 2
    assert "2 numbers, one per information set (12)" in capsys.readouterr().err


# -- the other verbs ---------------------------------------------------------------------------


@pytest.mark.parametrize("verb", list(maquis.common.registry.game("kuhn").verbs))
def test_every_verb_has_help(verb, capsys):
    with pytest.raises(SystemExit) as done:
        main(["kuhn", verb, "--help"])
    assert done.value.code == 0 and capsys.readouterr().out


def test_play_a_hand_in_the_terminal_and_replay_it(tmp_path):
    record = tmp_path / "hand.json"
    run = subprocess.run([sys.executable, "-m", "maquis", "kuhn", "play", "--seed", "3", "--record", str(record)],
                         input="help\nboard\nnonsense\nbet\nbet\n", capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "How to play Kuhn poker" in run.stdout and "GAME OVER" in run.stdout and "Recorded" in run.stdout
    episode = json.loads(record.read_text())
    assert episode["format"] == "maquis.kuhn-episode" and episode["actions"][0] == "bet"
    assert main(["kuhn", "replay", str(record), "-o", str(tmp_path / "frames")]) == 0
    assert sorted(p.suffix for p in (tmp_path / "frames").iterdir()) == [".png"] * (len(episode["actions"]) + 1)


def test_render_a_save_as_a_side_sees_it(tmp_path, capsys):
    env = kuhn.raw_env()
    env.reset(seed=2, options={"cards": ["Q", "K"]})
    save = tmp_path / "hand.json"
    save.write_text(env.save_state())
    assert main(["kuhn", "render", str(save), "--side", "first", "--text"]) == 0
    text = capsys.readouterr().out
    assert "first  card Q" in text and "second card ?" in text
    assert main(["kuhn", "render", str(save), "-o", str(tmp_path / "hand.png")]) == 0
    assert (tmp_path / "hand.png").stat().st_size > 0


def test_eval_ladder_rate_and_bench_run(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))  # `tests.test_kuhn` importable however pytest was started
    assert main(["kuhn", "eval", "--episodes", "200", "--json", "--no-progress"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {(r["side"], r["opponent"]) for r in rows} >= {("first", "heuristic"), ("second", "random")}
    assert main(["kuhn", "ladder", "--deals", "300", "--json", "--threads", "1"]) == 0
    agents = {a["agent"]: a for a in json.loads(capsys.readouterr().out)["agents"]}
    # The ladder scores hands won, not chips: the equilibrium wins about as many hands as random
    # (it wins more chips: `eval`'s mean payoff, `exploit`'s exact values).
    assert agents["random"]["rating"] == 0 and len(agents["heuristic"]["ci95"]) == 2
    assert main(["kuhn", "rate", "--policy", "tests.test_kuhn:EquilibriumPolicy", "--deals", "100", "--json",
                 "--no-progress", "--bootstrap", "20"]) == 0
    assert json.loads(capsys.readouterr().out)
    assert main(["kuhn", "bench", "--quick", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["engine"]["games_per_s"] > 0


def test_docs_page_and_playthroughs_are_up_to_date(capsys):
    assert main(["kuhn", "docs", "--check", str(ROOT / "docs" / "kuhn.md")]) == 0
    assert main(["kuhn", "playthrough", "--check", str(ROOT / "tests" / "playthroughs")]) == 0
    assert "3 of 3 playthroughs unchanged" in capsys.readouterr().err


# -- the web entry -------------------------------------------------------------------------------


def test_serve_lists_and_plays_kuhn_hiding_the_other_card():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from maquis.web import create_app

    app = create_app([ROOT / "tests" / "playthroughs"])
    with TestClient(app) as client:
        games = client.get("/api/games").json()
        listed = games["games"] if isinstance(games, dict) else games
        assert any(g["name"] == "kuhn" for g in listed)
        for seed in range(6):
            response = client.post("/api/play", json={"game": "kuhn", "side": "first", "opponent": "heuristic", "seed": seed})
            assert response.status_code == 200, response.text
            data = response.json()
            match = app.state.sessions.get(data["session"])
            hidden = match.table.state()["cards"]["second"]
            frame = data["current"]
            while True:
                assert frame["view"]["cards"]["second"] is None
                assert f'"{hidden}"' not in json.dumps(frame["view"])
                if frame["outcome"] is not None:
                    break
                action = frame["legal"][0]
                frame = client.post(f"/api/session/{data['session']}/act",
                                    json={"action": action["index"], "step": frame["step"]}).json()["frames"][-1]
            assert frame["outcome"] in kuhn.SIDES
