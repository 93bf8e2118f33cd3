"""D-Day's trained-network levels from Python: the weight file tied to D-Day (another game's is
refused naming both fingerprints), `network` and `network_search` as agents (both seats, legal,
deterministic), as the opponent of the single and vector envs and of `evaluate`, and the clear
error when no network is loaded or shipped."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import maquis
from maquis._core import dday as _dday
from maquis.dday import DDayEnv, DDayVectorEnv, evaluate
from maquis.dday import network as dnet
from maquis.dday.agents import HeuristicAgent, NetworkAgent, NetworkSearchAgent, load_network
from maquis.maquis.network import write_network_file


def _tensors(seed: int, hidden: int = 16) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    n, a = _dday.OBSERVATION_SIZE, _dday.NUM_ACTIONS
    return {
        "trunk.0.weight": rng.normal(0, 0.2, (hidden, n)), "trunk.0.bias": rng.normal(0, 0.1, hidden),
        "policy.weight": rng.normal(0, 0.5, (a, hidden)), "policy.bias": np.zeros(a),
        "value.weight": rng.normal(0, 0.5, (1, hidden)), "value.bias": np.zeros(1),
    }


@pytest.fixture
def dday_net(tmp_path):
    """A small random D-Day network loaded for the test; the shipped one (if any) loaded back after."""
    path = tmp_path / "dday.safetensors"
    write_network_file(str(path), _tensors(3), {"training": "test"}, metadata=dnet.network_file_metadata())
    load_network(path)
    yield path
    shipped = dnet.shipped_network_path()
    if shipped is not None:
        load_network(shipped)


def test_a_maquis_network_is_refused_naming_both_fingerprints(tmp_path):
    path = tmp_path / "maquis.safetensors"
    t = _tensors(1)
    t["trunk.0.weight"] = np.zeros((16, maquis.OBS_SIZE))
    t["policy.weight"], t["policy.bias"] = np.zeros((maquis.NUM_ACTIONS, 16)), np.zeros(maquis.NUM_ACTIONS)
    write_network_file(str(path), t)
    with pytest.raises(maquis.MaquisError) as e:
        load_network(path)
    assert _dday.OBSERVATION_FINGERPRINT in str(e.value) and maquis.maquis.network.OBSERVATION_FINGERPRINT in str(e.value)
    # And a D-Day file is refused by Maquis's loader.
    dpath = tmp_path / "dday.safetensors"
    write_network_file(str(dpath), _tensors(1), metadata=dnet.network_file_metadata())
    with pytest.raises(maquis.MaquisError, match=_dday.OBSERVATION_FINGERPRINT):
        maquis._core.maquis.Network.load(str(dpath))


def test_no_network_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(dnet, "network_metadata", lambda: None)
    monkeypatch.setattr(dnet, "shipped_network_path", lambda: None)
    with pytest.raises(ValueError, match="need a trained network"):
        DDayEnv(opponent="network")
    with pytest.raises(ValueError, match="need a trained network"):
        DDayVectorEnv(2, opponent="network_search")
    with pytest.raises(ValueError, match="need a trained network"):
        NetworkAgent()


def test_the_agents_play_legal_moves_for_both_seats_deterministically(dday_net):
    net = NetworkAgent(seed=3)
    for side in ("resistance", "german"):
        search = NetworkSearchAgent(budget=8, seed=4)
        obs_rows, mask_rows = [], []
        env = DDayEnv(side=side, opponent="heuristic")
        for k in range(3):
            obs, info = env.reset(seed=100 + k)
            done = False
            while not done:
                mask = info["action_mask"]
                obs_rows.append(obs)
                mask_rows.append(mask)
                a = net.act(obs, mask)
                assert mask[a]
                obs, _, term, trunc, info = env.step(a)
                done = term or trunc
        obs_b, mask_b = np.array(obs_rows), np.array(mask_rows)
        acts = NetworkAgent(seed=3).act_batch(obs_b, mask_b)
        assert mask_b[np.arange(len(acts)), acts].all()
        assert np.array_equal(acts, NetworkAgent(seed=3).act_batch(obs_b, mask_b))
        # The German plays the best legal logit of the network's forward pass; the Resistance
        # plays each game under a relabelling of the zones, so not always that, and another seed
        # plays otherwise.
        logits, values = _dday.network_forward(obs_b.astype(np.float32))
        greedy = np.where(mask_b, logits, -np.inf).argmax(1)
        other = NetworkAgent(seed=4).act_batch(obs_b, mask_b)
        if side == "german":
            assert np.array_equal(acts, greedy) and np.array_equal(acts, other)
        else:
            assert not np.array_equal(acts, greedy) and not np.array_equal(acts, other)
        assert ((values > 0) & (values < 1)).all()
        few = slice(0, 40)
        s1 = search.act_batch(obs_b[few], mask_b[few])
        s2 = NetworkSearchAgent(budget=8, seed=4).act_batch(obs_b[few], mask_b[few])
        assert mask_b[few][np.arange(len(s1)), s1].all()
        assert np.array_equal(s1, s2)


def test_a_dday_weight_file_loads_into_torch_with_its_own_sizes(dday_net):
    torch = pytest.importorskip("torch")
    from maquis.train.model import model_from_file

    model = model_from_file(str(dday_net))
    assert (model.obs_size, model.num_actions, model.hidden) == (_dday.OBSERVATION_SIZE, _dday.NUM_ACTIONS, (16,))
    obs = np.stack([DDayEnv(side=s).reset(seed=k)[0] for k in range(3) for s in ("resistance", "german")])
    logits, values = _dday.network_forward(obs.astype(np.float32))
    with torch.no_grad():
        tl, tv = model(torch.from_numpy(obs.astype(np.float32)))
    np.testing.assert_allclose(tl.numpy(), logits, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(torch.sigmoid(tv).numpy(), values, rtol=1e-5, atol=1e-6)


def test_the_levels_are_opponents_of_the_envs_and_of_evaluate(dday_net):
    for opponent in ("network", "network_search"):
        for side in ("resistance", "german"):
            env = DDayVectorEnv(3, side=side, opponent=opponent, opponent_kwargs={"budget": 4})
            obs, info = env.reset(seed=7)
            rng = np.random.default_rng(0)
            ends = 0
            for _ in range(300):
                masks = info["action_mask"]
                # Every row has an action (one awaiting its autoreset allows all; it is ignored).
                acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
                obs, _, term, trunc, info = env.step(acts)
                ends += int(np.sum(term | trunc))
            assert ends > 0
            env.close()
    r = evaluate("network", side="both", opponents=["heuristic", "network"], episodes=4, seed=1)
    assert {(row.side, row.opponent) for row in r.rows} == {
        (s, o) for s in ("resistance", "german") for o in ("heuristic", "network")}
    # The network plays the same on the same deals: two evaluations agree.
    again = evaluate("network", side="both", opponents=["heuristic", "network"], episodes=4, seed=1)
    assert [row.counts for row in r.rows] == [row.counts for row in again.rows]


def test_a_match_against_the_network_saves_and_pickles(dday_net):
    import pickle

    env = DDayEnv(side="german", opponent="network_search", opponent_kwargs={"budget": 4})
    obs, info = env.reset(seed=3)
    copy = pickle.loads(pickle.dumps(env))
    saved = env.save_state()
    assert _dday.OBSERVATION_FINGERPRINT in saved
    other = DDayEnv(side="german", opponent="network_search", opponent_kwargs={"budget": 4})
    other.reset(seed=0)
    other.load_state(saved)
    for _ in range(30):
        a = int(np.flatnonzero(info["action_mask"])[-1])
        r, c, o = env.step(a), copy.step(a), other.step(a)
        assert np.array_equal(r[0], c[0]) and np.array_equal(r[0], o[0])
        obs, info = r[0], r[4]
        if r[2] or r[3]:
            break


def test_dday_train_writes_networks_and_curve_and_resumes(tmp_path):
    pytest.importorskip("torch")
    import csv
    import subprocess
    import sys

    out = tmp_path / "run"
    args = [sys.executable, "-m", "maquis", "dday", "train", "--out", str(out), "--games0", "3", "--games", "2",
            "--teacher0-budget", "2", "--budget", "2", "--hidden", "8", "--eval-episodes", "2", "--threads", "1"]
    first = subprocess.run([*args, "--generations", "1"], capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    second = subprocess.run([*args, "--generations", "2"], capture_output=True, text=True, timeout=600)
    assert second.returncode == 0, second.stderr
    assert "resuming" in second.stdout and "generation 0:" not in second.stdout
    with open(out / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    # Generations 0 and 1, network alone, both seats against random and heuristic.
    assert {(r["generation"], r["side"], r["opponent"]) for r in rows} == {
        (g, s, o) for g in "01" for s in ("resistance", "german") for o in ("random", "heuristic")}
    # The plot is drawn where matplotlib is (the train extra); without it the run says so.
    if importlib.util.find_spec("matplotlib") is not None:
        assert (out / "curve.png").exists()
    else:
        assert not (out / "curve.png").exists() and "matplotlib is not installed" in second.stderr
    meta = load_network(out / "net_gen1.safetensors")
    assert meta["observation"] == _dday.OBSERVATION_FINGERPRINT and '"generation": 1' in meta["training"]
    shipped = dnet.shipped_network_path()
    if shipped is not None:
        load_network(shipped)


def test_dday_train_distils_each_named_side_from_its_policy_and_the_others_from_its_init_network(tmp_path, dday_net):
    pytest.importorskip("torch")
    import json
    import subprocess
    import sys

    from maquis.dday.policy import load_policy
    from maquis.common.policy import save_policy
    from maquis.common.policy import masked_probabilities

    rng = np.random.default_rng(5)
    n, a = _dday.OBSERVATION_SIZE, _dday.NUM_ACTIONS
    policy = tmp_path / "german.npz"
    save_policy(policy, [rng.normal(0, 0.3, (n, 12)), rng.normal(0, 0.3, (12, a))], [np.zeros(12), np.zeros(a)],
                "tanh", {"side": "german"})
    out = tmp_path / "run"
    base = [sys.executable, "-m", "maquis", "dday", "train", "--out", str(out), "--generations", "1",
            "--distill-games", "4", "--eval-episodes", "2", "--epochs", "1", "--threads", "1"]
    done = subprocess.run([*base, "--init", str(dday_net), "--distill", f"german={policy}"], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "german (policy) against heuristic: 2 games" in done.stdout
    assert "resistance (network) against network: 2 games" in done.stdout
    data = np.load(out / "data" / "gen0.npz")
    assert len(data["game_outcomes"]) == 8 and set(np.unique(data["outcome"])) <= {0.0, 0.5, 1.0}
    obs, masks, targets = data["obs"], data["masks"], data["policy"]
    assert (masks.sum(1) > 1).all() and np.allclose(targets.sum(1), 1, atol=1e-5) and (targets[~masks] == 0).all()
    # Each side's targets are its teacher's distribution: the policy file's for the German, the
    # --init network's for the Resistance (the observation says whose decision it is).
    assert _dday.OBSERVATION_LAYOUT[0] == ("self", 0, 2)  # one-hot: the Resistance, the German
    german = obs[:, 1] > 0
    load_network(dday_net)
    from_net = masked_probabilities(_dday.network_forward(obs)[0], masks)
    def policy_probabilities(path, obs, masks):
        return masked_probabilities(load_policy(path).logits(obs).astype(np.float32), masks)

    from_policy = policy_probabilities(policy, obs, masks)
    matches_net = np.isclose(targets, from_net, atol=1e-4).all(1)
    matches_policy = np.isclose(targets, from_policy, atol=1e-4).all(1)
    assert german.any() and (~german).any()
    assert matches_policy[german].all() and matches_net[~german].all()
    assert not matches_net[german].all() and not matches_policy[~german].all()
    meta = load_network(out / "net_gen0.safetensors")
    assert json.loads(meta["training"])["teacher"].startswith("distill german=")
    # Both sides from policy files: the Resistance's targets are then its own file's.
    resistance = tmp_path / "resistance.npz"
    save_policy(resistance, [rng.normal(0, 0.3, (n, 12)), rng.normal(0, 0.3, (12, a))], [np.zeros(12), np.zeros(a)],
                "tanh", {"side": "resistance"})
    both = subprocess.run([*base[:5], "--out", str(tmp_path / "both"), *base[7:], "--init", str(dday_net),
                           "--distill", f"german={policy}", "--distill", f"resistance={resistance}"],
                          capture_output=True, text=True, timeout=600)
    assert both.returncode == 0, both.stderr
    assert "resistance (policy) against network: 2 games" in both.stdout
    data = np.load(tmp_path / "both" / "data" / "gen0.npz")
    obs, masks, targets = data["obs"], data["masks"], data["policy"]
    german = obs[:, 1] > 0
    expected = np.where(german[:, None], policy_probabilities(policy, obs, masks),
                        policy_probabilities(resistance, obs, masks))
    assert german.any() and (~german).any() and np.isclose(targets, expected, atol=1e-4).all()
    # --distill needs the network of the other side, and a side and a file it can read; --init
    # takes D-Day's networks only
    maquis_net = tmp_path / "maquis.safetensors"
    maquis_net.write_bytes(maquis._core.maquis.Network.random([4], 0).to_bytes())
    for extra, message in ((["--distill", f"german={policy}"], "needs --init"),
                           (["--init", str(maquis_net)], _dday.OBSERVATION_FINGERPRINT),
                           (["--init", str(dday_net), "--distill", f"allies={policy}"], "SIDE one of"),
                           (["--init", str(dday_net), "--distill", "german=/no/such.npz"], "no policy file"),
                           (["--init", str(dday_net), "--distill", f"german={policy}", "--distill", f"german={policy}"],
                            "the german is given twice")):
        bad = subprocess.run([*base[:5], "--out", str(tmp_path / "bad"), *base[7:], *extra], capture_output=True,
                             text=True, timeout=600)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr


def test_a_saved_network_opponent_keeps_its_relabelling_and_refuses_a_bad_one(dday_net):
    import json

    env = DDayEnv(side="german", opponent="network")
    obs, info = env.reset(seed=3)
    saved = env.save_state()
    relabel = json.loads(saved)["opponent"]["network"]["relabel"]
    assert sorted(relabel["to"]) == [0, 1, 2, 3, 4]
    # The same game after a reload: the opponent keeps its relabelling and stream.
    again = DDayEnv(side="german", opponent="network")
    again.reset(seed=0)
    again.load_state(saved)
    while True:
        a = int(np.flatnonzero(info["action_mask"])[0])
        obs, _, term, trunc, info = env.step(a)
        obs2, _, term2, trunc2, _ = again.step(a)
        assert np.array_equal(obs, obs2)
        if term or trunc:
            break
    bad = json.loads(saved)
    bad["opponent"]["network"]["relabel"]["to"] = [0, 1, 2, 3, 3]
    with pytest.raises(ValueError, match="permutation"):
        DDayEnv(side="german", opponent="network").load_state(json.dumps(bad))


def test_selfplay_against_a_level_learns_the_teachers_moves_alone():
    # Game i: the teacher against opponents[i % 2], the Resistance in games 0 and 1, the German in 2 and 3.
    d = _dday.selfplay("search", 4, 70, budget=4, opponents=["random", "heuristic"], opponent_budget=4, threads=2)
    assert (d["side"] == (d["game"] // 2) % 2).all() and len(d["game_outcomes"]) == 4
    both = _dday.selfplay("heuristic", 2, 80)
    lined = _dday.selfplay("heuristic", 2, 80, opponents=["heuristic"])
    mine = both["side"] == both["game"] % 2
    for k in ("action", "side", "outcome", "obs"):
        assert np.array_equal(lined[k], both[k][mine]), k
    with pytest.raises(ValueError, match="nobody"):
        _dday.selfplay("heuristic", 1, opponents=["nobody"])
