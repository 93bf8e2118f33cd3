"""`maquis <game> rate` (a user's policy on the ladder's scale), its `--sprt` test against a level,
`maquis <game> exploit` (a PPO best response), the policy adapters of `maquis.common.policies`
and their errors."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

pytest.importorskip("choix")

import maquis.dday.tournament as dday_t  # noqa: E402
import maquis.maquis.tournament as maquis_t  # noqa: E402
from maquis.cli import main  # noqa: E402
from maquis.common import rate as R  # noqa: E402
from maquis.common.ladder import play_ladder  # noqa: E402
from maquis.common.policies import PolicyError, TorchPolicy, as_actor  # noqa: E402
from maquis.dday.agents import HeuristicAgent, RandomAgent  # noqa: E402


# -- The GSPRT -------------------------------------------------------------------------------------


def test_llr_sign_and_symmetry():
    # all pairs split (score 1/2): evidence for H0 (elo0 = 0) against H1 (elo1 = 50)
    assert R.llr_pentanomial([0, 0, 20, 0, 0], 0, 50) < 0
    # all pairs won: evidence for H1, growing with the pairs
    a, b = R.llr_pentanomial([0, 0, 0, 0, 5], 0, 50), R.llr_pentanomial([0, 0, 0, 0, 10], 0, 50)
    assert 0 < a < b
    # mirrored counts and hypotheses give the opposite LLR
    assert R.llr_pentanomial([1, 2, 3, 4, 5], -20, 20) == pytest.approx(-R.llr_pentanomial([5, 4, 3, 2, 1], -20, 20))
    assert R.llr_pentanomial([0, 0, 0, 0, 0], 0, 50) == 0.0
    assert R.expected_score(0) == 0.5 and R.expected_score(400) == pytest.approx(10 / 11)


def test_sprt_heuristic_beats_random_quickly():
    r = R.sprt(dday_t.VERSUS, HeuristicAgent(seed=1), "random", 0, 50)
    assert r.decision == "H1"
    assert r.llr >= r.bounds[1] and r.pairs == sum(r.counts) < 100
    assert r.bounds == pytest.approx([np.log(0.05 / 0.95), np.log(0.95 / 0.05)], abs=1e-3)


def test_sprt_random_against_itself_does_not_accept_h1():
    r = R.sprt(dday_t.VERSUS, RandomAgent(seed=1), "random", 0, 50, max_pairs=400)
    assert r.decision != "H1"
    assert r.decision == "H0" and r.llr <= r.bounds[0]


def test_sprt_bad_input():
    with pytest.raises(ValueError, match="unknown level 'nope'"):
        R.sprt(dday_t.VERSUS, RandomAgent(seed=1), "nope", 0, 50)
    with pytest.raises(ValueError, match="ELO0 < ELO1"):
        R.sprt(dday_t.VERSUS, RandomAgent(seed=1), "random", 50, 0)
    with pytest.raises(ValueError, match="alpha"):
        R.sprt(dday_t.VERSUS, RandomAgent(seed=1), "random", 0, 50, alpha=0.7)


def test_sprt_cli_json(capsys):
    rc = main(["dday", "rate", "--policy", "maquis.dday.agents:HeuristicAgent", "--sprt", "0,50", "--against", "random",
               "--json"])
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    assert d["decision"] == "H1" and d["against"] == "random" and d["pairs"] > 0
    assert set(d) >= {"llr", "bounds", "counts", "alpha", "beta"}
    assert main(["dday", "rate", "--policy", "maquis.dday.agents:HeuristicAgent", "--sprt", "0,50"]) == 2
    assert "--against" in capsys.readouterr().err


# -- Rating ----------------------------------------------------------------------------------------


def test_rate_two_player_with_a_ladder_json(tmp_path):
    pool = play_ladder(dday_t.GAME, "random,heuristic", deals=10, bootstrap=5)
    path = tmp_path / "ladder.json"
    path.write_text(pool.to_json())
    r = dday_t.rate(HeuristicAgent(seed=3), str(path), deals=10, bootstrap=20)
    d = r.to_dict()
    assert d["policy"] == "HeuristicAgent"
    assert sorted(a["agent"] for a in d["agents"]) == ["HeuristicAgent", "heuristic", "random"]
    assert d["rating"] > 100  # the heuristic beats random (about 380 Elo on this ladder)
    assert d["ci95"][0] <= d["rating"] <= d["ci95"][1]
    assert sorted(o["agent"] for o in d["opponents"]) == ["heuristic", "random"]
    for o in d["opponents"]:
        assert o["games"] == 20 and o["wins"] + o["draws"] + o["losses"] == 20
        assert sum(s["wins"] for s in o["by_seat"]) == o["wins"]
    # the random policy sits near random
    rr = dday_t.rate(RandomAgent(seed=3), str(path), deals=10, bootstrap=20)
    assert rr.rating < d["rating"]
    assert "rating" in r.to_text() and "HeuristicAgent" in r.to_text()
    # the search levels play at the pool's budget unless told; another game's ladder is refused
    assert r.settings["budget"] == 200
    d = json.loads(path.read_text())
    d["settings"]["budget"] = 50
    path.write_text(json.dumps(d))
    assert dday_t.rate(RandomAgent(), str(path), agents="random", deals=2, bootstrap=2).settings["budget"] == 50
    assert dday_t.rate(RandomAgent(), str(path), agents="random", deals=2, bootstrap=2, budget=7).settings["budget"] == 7
    d["game"] = "maurice"
    path.write_text(json.dumps(d))
    with pytest.raises(ValueError, match="a ladder of 'maurice', not of 'dday'"):
        dday_t.rate(RandomAgent(), str(path), deals=2)


class ResistanceOnly:
    """A policy trained for one side: the heuristic as the Resistance, random moves as the German."""

    def __init__(self):
        self.resistance, self.german = HeuristicAgent(seed=5), RandomAgent(seed=5)

    def act_batch(self, obs, masks):
        # the observation's `self` block (0, 2): one-hot, the Resistance first (docs/api/dday1944.md)
        return np.array([(self.resistance if o[0] == 1 else self.german).act(o, m) for o, m in zip(obs, masks)])


def test_rate_by_seat_sees_a_policy_of_one_side(tmp_path):
    pool = play_ladder(dday_t.GAME, "random,heuristic,network", deals=40, seed=1, bootstrap=5)
    r = dday_t.rate(ResistanceOnly(), pool, deals=40, seed=1, bootstrap=40)
    (res, res_ci), (ger, ger_ci) = [(b["rating"], b["ci95"]) for b in r.by_seat]
    assert [b["side"] for b in r.by_seat] == ["resistance", "german"]
    heuristic, random = [next(a for a in r.agents if a["agent"] == n)["by_seat"] for n in ("heuristic", "random")]
    # as the Resistance it is the heuristic (within the intervals), as the German random
    assert res_ci[0] <= heuristic[0]["rating"] <= res_ci[1] and res > random[0]["ci95"][1]
    assert ger_ci[0] <= random[1]["rating"] <= ger_ci[1] and ger < heuristic[1]["ci95"][0]
    assert "as resistance" in r.to_text() and json.loads(r.to_json())["by_seat"] == r.by_seat
    # one opponent from a pool of two joins neither seat to the other: no ratings by seat
    two = play_ladder(dday_t.GAME, "random,heuristic", deals=6, seed=1, bootstrap=5)
    assert dday_t.rate(ResistanceOnly(), two, agents="random", deals=6, bootstrap=5).by_seat == []
    assert dday_t.rate(ResistanceOnly(), two, deals=6, bootstrap=5).by_seat != []


def test_rate_on_the_fly_and_the_cli(tmp_path, capsys):
    out = tmp_path / "r.json"
    rc = main(["maurice", "rate", "--policy", "maquis.maurice.agents:RandomAgent", "--agents", "random", "--deals", "3",
               "--bootstrap", "5", "--json", "-o", str(out), "--no-progress"])
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    assert d == json.loads(out.read_text())
    assert d["game"] == "maurice" and d["opponents"][0]["games"] == 6
    assert main(["dday", "rate", "--policy", "maquis.dday.agents:RandomAgent", "--agents", "nope"]) == 2
    assert "unknown agent 'nope'" in capsys.readouterr().err


def test_rate_bad_ladder_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"agents": [1]}')
    with pytest.raises(ValueError, match="bad.json: not a two-player ladder"):
        dday_t.rate(RandomAgent(), str(bad), deals=2)
    bad.write_text("{nope")
    with pytest.raises(ValueError, match="bad.json: not JSON"):
        dday_t.rate(RandomAgent(), str(bad), deals=2)


def test_rate_maquis_per_difficulty(capsys):
    from maquis import agents

    r = maquis_t.rate(agents.make_agent("heuristic", seed=0), agents="random", deals=8,
                      difficulties="very_easy,easy", bootstrap=10)
    d = r.to_dict()
    names = [a["agent"] for a in d["agents"]]
    assert any("heuristic" in n for n in names) and "random" in names
    mine = next(a for a in d["agents"] if a["agent"] == r.settings["policy"])
    assert [x["difficulty"] for x in mine["difficulties"]] == ["very_easy", "easy"]
    assert all(x["games"] == 8 for x in mine["difficulties"])
    assert len(d["pairings"]) == 1
    assert main(["rate", "--policy", "maquis.maquis.agents:nothing_here", "--deals", "2"]) == 2
    assert "cannot import" in capsys.readouterr().err


# -- Policies and their errors ---------------------------------------------------------------------


def test_bad_policies(tmp_path):
    obs = np.zeros((2, 380), np.float32)
    masks = np.zeros((2, 191), bool)
    masks[:, 3] = True
    # out-of-range and illegal actions, and the wrong number of them
    with pytest.raises(PolicyError, match="out of range"):
        as_actor(lambda o, m: 500, "dday")[1](obs, masks)
    with pytest.raises(PolicyError, match="illegal"):
        as_actor(lambda o, m: 4, "dday")[1](obs, masks)

    class Short:
        def act_batch(self, obs, masks):
            return np.zeros(1, np.int64)

    with pytest.raises(PolicyError, match="shape"):
        as_actor(Short(), "dday")[1](obs, masks)
    assert list(as_actor(lambda o, m: 3, "dday")[1](obs, masks)) == [3, 3]
    # a malformed .npz, a missing one, and a policy of the other game's spaces
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(PolicyError, match="bad.npz"):
        as_actor(str(bad), "dday")
    with pytest.raises(PolicyError, match="missing.npz"):
        as_actor(str(tmp_path / "missing.npz"), "dday")
    with pytest.raises(PolicyError, match="no such file"):
        as_actor("nothing", "dday")
    from maquis.maquis.policy import save_policy

    good = tmp_path / "maquis.npz"
    save_policy(good, [np.zeros((416, 217), np.float32)], [np.zeros(217, np.float32)], "tanh", {})
    with pytest.raises(PolicyError, match="maquis.npz"):
        as_actor(str(good), "dday")
    assert as_actor(str(good), "maquis")[0] == str(good)
    with pytest.raises(PolicyError, match="maquis.npz"):
        dday_t.rate(str(good), agents="random", deals=1)


def test_torch_policy_and_wrong_width():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    obs = np.random.default_rng(0).random((4, 380), dtype=np.float32)
    masks = np.zeros((4, 191), bool)
    masks[:, [5, 9]] = True
    lin = torch.nn.Linear(380, 191)
    name, act = as_actor(lin, "dday")
    a = act(obs, masks)
    assert a.dtype == np.int64 and set(a) <= {5, 9}
    # the masked argmax of the module's logits
    logits = lin(torch.as_tensor(obs)).detach().numpy()
    assert list(a) == list(np.where(logits[:, 5] >= logits[:, 9], 5, 9))
    assert set(TorchPolicy(lin, deterministic=False, seed=1).act_batch(obs, masks)) <= {5, 9}
    with pytest.raises(PolicyError, match=r"\(4, 190\).*\(4, 191\)"):
        as_actor(torch.nn.Linear(380, 190), "dday")[1](obs, masks)
    r = R.sprt(dday_t.VERSUS, lin, "random", 0, 50, max_pairs=4, batch=4)
    assert r.pairs == 4 or r.decision != "none"


# -- exploit ---------------------------------------------------------------------------------------


def test_exploit_tiny_end_to_end_and_resume(tmp_path, capsys):
    pytest.importorskip("torch")
    out = tmp_path / "run"
    args = ["dday", "exploit", "--level", "random", "--side", "german", "--out", str(out), "--num-envs", "8",
            "--num-steps", "32", "--hidden", "16", "--eval-deals", "16", "--json"]
    assert main(args + ["--steps", "400"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d == json.loads((out / "exploit.json").read_text())
    assert d["level"] == "random" and d["side"] == "german" and d["steps"] >= 400
    assert d["wins"] + d["draws"] + d["losses"] == 16
    lo, hi = d["win_ci95"]
    assert 0 <= lo <= d["win_rate"] <= hi <= 1 and d["exploitability_lower_bound"] == lo
    assert (out / "checkpoint.pt").exists() and (out / "policy.npz").exists()
    first = d["steps"]
    # the same DIR resumes: no steps are trained again below the checkpoint's
    assert main(args + ["--steps", str(first + 200)]) == 0
    d2 = json.loads(capsys.readouterr().out)
    assert first + 200 <= d2["steps"] < 2 * first + 400 and d2["updates"] > d["updates"]
    assert main(["dday", "exploit", "--level", "nope", "--out", str(tmp_path / "x")]) == 2
    assert "unknown level 'nope'" in capsys.readouterr().err


def test_exploit_without_torch(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)
    assert main(["maurice", "exploit", "--level", "random", "--out", str(tmp_path / "x")]) == 2
    assert "maquis[train]" in capsys.readouterr().err


def test_maquis_sprt_trinomial(capsys):
    from maquis.maquis.agents import HeuristicAgent as MaquisHeuristic

    r = maquis_t.sprt(MaquisHeuristic(seed=0), "random", 0, 50, difficulty="very_easy")
    assert r.decision == "H1" and len(r.counts) == 3 and sum(r.counts) == r.pairs
    assert r.settings["difficulty"] == "very_easy"
    assert main(["rate", "--policy", "maquis.maquis.agents:RandomAgent", "--sprt", "0,50", "--against", "random",
                 "--difficulty", "very_easy", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["decision"] == "H0" and d["llr"] <= d["bounds"][0]
    with pytest.raises(ValueError, match="unknown level 'nope'"):
        maquis_t.sprt(MaquisHeuristic(seed=0), "nope", 0, 50)
    assert main(["rate", "--policy", "maquis.maquis.agents:RandomAgent", "--against", "random"]) == 2
    assert "go together" in capsys.readouterr().err


def test_a_policy_that_raises_is_named():
    def broken(obs, mask):
        raise KeyError("boom")

    obs, masks = np.zeros((1, 380), np.float32), np.ones((1, 191), bool)
    with pytest.raises(PolicyError, match="policy broken: raised KeyError"):
        as_actor(broken, "dday")[1](obs, masks)


def test_play_policy_results_do_not_depend_on_num_envs():
    # an environment whose game ends is refilled with the next deal: each deal's result is its own
    def pick(o, m):
        legal = np.flatnonzero(m)
        return int(legal[int(np.asarray(o, np.float64).sum() * 1000) % len(legal)])

    _, act = as_actor(pick, "dday")
    runs = [R.play_policy(dday_t.VERSUS, act, "random", range(16), 0, "german", num_envs=n) for n in (1, 3, 8)]
    assert all((r == runs[0]).all() for r in runs)
    assert set(runs[0]) == {-1, 1}  # this check sees both results
    # a deal is the same deal whatever the others: deals 5.. alone give the same results
    alone = R.play_policy(dday_t.VERSUS, act, "random", range(5, 16), 0, "german", num_envs=4)
    assert (alone == runs[0][5:]).all()
