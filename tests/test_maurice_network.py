"""Maurice Lite's trained-network levels from Python: the weight file tied to Maurice's compact
observation (another game's, or another layout's, is refused naming the fingerprints), `network`
and `network_search` as agents (both seats, legal, deterministic) and as the opponent of the env,
`selfplay`'s samples the same for any thread count, `maquis maurice train` resuming a tiny run, the
shipped file, and the clear error when no network is loaded or shipped."""

from __future__ import annotations

import csv
import importlib.util
import json

import numpy as np
import pytest

import maquis
from maquis._core import dday as _dday
from maquis._core import maurice as _maurice
from maquis.maurice import MauriceEnv
from maquis.maurice import network as mnet
from maquis.maurice.agents import NetworkAgent, NetworkSearchAgent, load_network
from maquis.maquis.network import write_network_file


def _tensors(seed: int, obs_size: int, num_actions: int, hidden: int = 16) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "trunk.0.weight": rng.normal(0, 0.2, (hidden, obs_size)), "trunk.0.bias": rng.normal(0, 0.1, hidden),
        "policy.weight": rng.normal(0, 0.5, (num_actions, hidden)), "policy.bias": np.zeros(num_actions),
        "value.weight": rng.normal(0, 0.5, (1, hidden)), "value.bias": np.zeros(1),
    }


def _maurice_tensors(seed: int) -> dict[str, np.ndarray]:
    return _tensors(seed, _maurice.COMPACT_OBSERVATION_SIZE, _maurice.NUM_ACTIONS)


def _reload_shipped() -> None:
    """Other tests play the shipped network: it is loaded back after a test loads another."""
    if mnet.shipped_network_path() is not None:
        load_network(mnet.shipped_network_path())


def _loaded(path, tensors: dict[str, np.ndarray]):
    """`tensors` written to `path` as a Maurice network of this build, and loaded."""
    write_network_file(str(path), tensors, {"training": "test"}, metadata=mnet.network_file_metadata())
    load_network(path)
    return path


@pytest.fixture
def maurice_net(tmp_path):
    """A small random Maurice network, loaded for the test."""
    yield _loaded(tmp_path / "maurice.safetensors", _maurice_tensors(3))
    _reload_shipped()


def test_another_games_or_layouts_network_is_refused_naming_the_fingerprints(tmp_path):
    dday = tmp_path / "dday.safetensors"
    meta = {"format": _dday.NETWORK_FORMAT, "observation": _dday.OBSERVATION_FINGERPRINT}
    write_network_file(str(dday), _tensors(1, _dday.OBSERVATION_SIZE, _dday.NUM_ACTIONS), metadata=meta)
    with pytest.raises(maquis.MaquisError, match=_maurice.OBSERVATION_FINGERPRINT) as e:
        load_network(dday)
    assert _dday.OBSERVATION_FINGERPRINT in str(e.value) and "Maurice Lite network" in str(e.value)
    # A file claiming another compact layout (an older build's) is refused the same way.
    old = tmp_path / "old.safetensors"
    stale = "maurice-obs1084-a1447-0000000000000000"
    write_network_file(str(old), _maurice_tensors(1), metadata={**mnet.network_file_metadata(), "observation": stale})
    with pytest.raises(maquis.MaquisError, match=stale):
        load_network(old)
    # Right fingerprint, wrong shapes: the tensor is named.
    bad = tmp_path / "bad.safetensors"
    t = _maurice_tensors(1)
    t["trunk.0.weight"] = t["trunk.0.weight"][:, :100]
    write_network_file(str(bad), t, metadata=mnet.network_file_metadata())
    with pytest.raises(maquis.MaquisError, match="trunk.0"):
        load_network(bad)


def test_no_network_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(mnet.NETWORK, "metadata", lambda: None)
    monkeypatch.setattr(mnet.NETWORK, "shipped_path", lambda: None)
    for make in (lambda: MauriceEnv(opponent="network"), lambda: NetworkAgent(), lambda: NetworkSearchAgent(budget=4)):
        with pytest.raises(ValueError, match="need a trained network.*maquis maurice train"):
            make()


def test_the_agents_play_legal_moves_for_both_seats_deterministically(maurice_net):
    net = NetworkAgent()
    assert net.metadata["observation"] == _maurice.OBSERVATION_FINGERPRINT
    for side in ("blue", "red"):
        env = MauriceEnv(side=side, opponent="heuristic", scenario="skirmish")
        obs, info = env.reset(seed=5)
        rows, masks = [], []
        for _ in range(60):
            mask = info["action_mask"]
            a = net.act(obs, mask)
            assert mask[a] and a == NetworkAgent().act(obs, mask)
            b = NetworkSearchAgent(budget=4, seed=1).act(obs, mask)
            assert mask[b] and b == NetworkSearchAgent(budget=4, seed=1).act(obs, mask)
            rows.append(obs)
            masks.append(mask)
            obs, _, term, trunc, info = env.step(a)
            if term or trunc:
                break
        assert np.array_equal(net.act_batch(np.array(rows), np.array(masks)),
                              [net.act(o, m) for o, m in zip(rows, masks)])


def test_network_levels_are_opponents_and_evaluated(maurice_net):
    for level in ("network", "network_search"):
        env = MauriceEnv(opponent=level, opponent_kwargs={"budget": 4}, scenario="skirmish")
        obs, info = env.reset(seed=2)
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            done = term or trunc
        assert info["outcome"] in ("win", "draw", "loss")  # the learner's view (API: single-agent env)
    r = maquis.maurice.evaluate("network", side="both", opponents=["random"], episodes=2, seed=3,
                                scenario="skirmish")
    assert [(row.side, row.episodes) for row in r.rows] == [("blue", 2), ("red", 2)]


def test_selfplay_gives_the_same_samples_for_any_thread_count(maurice_net):
    runs = [_maurice.selfplay("network_search", 3, 40, budget=4, network=str(maurice_net),
                              scenarios=["skirmish", "standard"], threads=t) for t in (1, 2)]
    for k in runs[0]:
        assert np.array_equal(runs[0][k], runs[1][k]), k
    d = runs[0]
    assert d["obs"].shape == (len(d["action"]), _maurice.COMPACT_OBSERVATION_SIZE)
    assert d["masks"][np.arange(len(d["action"])), d["action"]].all()
    assert set(d["side"]) == {0, 1} and len(d["game_outcomes"]) == 3
    with pytest.raises(maquis.MaquisError, match="needs network"):
        _maurice.selfplay("network_search", 1)
    with pytest.raises(maquis.MaquisError, match="unknown teacher"):
        _maurice.selfplay("teacher", 1)
    with pytest.raises(ValueError, match="scenario"):
        _maurice.selfplay("heuristic", 1, scenarios=["moon"])


def test_selfplay_against_levels_learns_the_teachers_moves_alone():
    # Game i: the teacher against opponents[i % 2], blue for games 0 and 1, red for 2 and 3.
    d = _maurice.selfplay("search", 4, 50, budget=4, scenarios=["skirmish"], opponents=["random", "heuristic"],
                          opponent_budget=4, threads=2)
    assert (d["side"] == (d["game"] // 2) % 2).all()
    assert len(d["game_outcomes"]) == 4
    # The heuristic teacher against the heuristic level: self-play's games, the teacher's seat only.
    both = _maurice.selfplay("heuristic", 2, 60, scenarios=["skirmish"])
    lined = _maurice.selfplay("heuristic", 2, 60, scenarios=["skirmish"], opponents=["heuristic"])
    mine = both["side"] == both["game"] % 2
    assert 0 < mine.sum() < len(mine)
    for k in ("action", "side", "outcome", "obs"):
        assert np.array_equal(lined[k], both[k][mine]), k
    assert np.array_equal(lined["game_outcomes"], both["game_outcomes"])
    with pytest.raises(ValueError, match="grandmaster"):
        _maurice.selfplay("heuristic", 1, opponents=["grandmaster"])
    with pytest.raises(maquis.MaquisError, match="opponent_budget"):
        _maurice.selfplay("heuristic", 1, opponents=["random"], opponent_budget=0)


def test_a_network_teacher_plays_its_files_greedy_moves(maurice_net):
    d = _maurice.selfplay("network", 2, 90, network=str(maurice_net), scenarios=["skirmish"], opponents=["random"])
    logits, _ = _maurice.network_forward(d["obs"])
    assert np.array_equal(d["action"], np.where(d["masks"], logits, -np.inf).argmax(1))
    assert (d["side"] == d["game"] % 2).all()
    with pytest.raises(maquis.MaquisError, match="teacher 'network' needs network"):
        _maurice.selfplay("network", 1)


def test_teacher0_lessons_are_parsed_with_clear_errors():
    from maquis.train.iteration import Lesson, parse_lesson

    assert parse_lesson("network@a/b.safetensors:heuristic,random:600") == \
        Lesson("network", "a/b.safetensors", ["heuristic", "random"], 600)
    assert parse_lesson("search:self:10") == Lesson("search", None, None, 10)
    assert str(parse_lesson("network@n.safetensors:random:6")) == "network@n.safetensors against random (6 games)"
    for bad, message in [("search:random", "TEACHER"), ("oracle:random:5", "the teacher must be"),
                         ("network:random:5", "take @FILE"), ("search@x:random:5", "take @FILE"),
                         ("search:dragons:5", "LEVELS"), ("search:random:0", "GAMES"), ("search:random:x", "GAMES")]:
        with pytest.raises(ValueError, match=message):
            parse_lesson(bad)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch")
def test_train_runs_a_tiny_run_and_resumes(tmp_path, capsys):
    from maquis.common.cli import main

    out = tmp_path / "run"
    argv = ["maurice", "train", "--out", str(out), "--games0", "2", "--games", "1", "--teacher0-budget", "2",
            "--budget", "2", "--hidden", "8", "--epochs", "1", "--eval-episodes", "1", "--eval-opponents", "random",
            "--scenarios", "skirmish", "--threads", "1", "--storage", "float32"]
    try:
        assert main([*argv, "--generations", "1"]) == 0
        assert main([*argv, "--generations", "2"]) == 0
        assert "resuming" in capsys.readouterr().out
        rows = list(csv.DictReader(open(out / "curve.csv")))
        assert [r["generation"] for r in rows] == ["0", "0", "1", "1"]
        assert {r["side"] for r in rows} == {"blue", "red"}
        meta = load_network(out / "net_gen1.safetensors")
        assert json.loads(meta["training"])["teacher"] == "network_search@2"
        # Against the levels: recorded in the file, and an unknown level is refused before a game.
        lined = tmp_path / "lined"
        argv_lined = [*argv[:3], str(lined), *argv[4:], "--generations", "1", "--opponents0", "random,heuristic"]
        assert main(argv_lined) == 0
        meta = load_network(lined / "net_gen0.safetensors")
        assert json.loads(meta["training"])["teacher"] == "search@2 against random,heuristic"
        assert main([*argv[:3], str(tmp_path / "bad"), *argv[4:], "--opponents0", "grandmaster"]) == 2
        assert "--opponents0 must name levels" in capsys.readouterr().err
        # A checkpoint of other widths is refused rather than overwritten.
        assert main([*argv, "--hidden", "9", "--generations", "3"]) == 2
    finally:
        _reload_shipped()


def test_the_shipped_network_loads_and_plays():
    path = mnet.shipped_network_path()
    assert path is not None, "maquis.maurice ships networks/maurice.safetensors"
    meta = load_network(path)
    assert meta["observation"] == _maurice.OBSERVATION_FINGERPRINT
    # The file names the command that made it: the recipe's last step, PPO on the network.
    assert json.loads(meta["training"])["command"].startswith(("maquis maurice train", "examples/maurice_ppo.py"))
    env = MauriceEnv(scenario="skirmish")
    obs, info = env.reset(seed=1)
    assert info["action_mask"][NetworkAgent().act(obs, info["action_mask"])]


def test_train_with_a_map_stem_plays_in_rust_as_torch_computes_it(tmp_path, capsys):
    """`--maps`: a network over the map planes too, trained from samples that keep them packed,
    written with its stem, read back by Rust with the same outputs as torch, and resumed."""
    import torch

    from maquis.common.cli import main
    from maquis.train.model import model_from_file

    out = tmp_path / "maps"
    argv = ["maurice", "train", "--out", str(out), "--games0", "2", "--games", "1", "--teacher0-budget", "2",
            "--budget", "2", "--hidden", "8", "--maps", "4,6", "--epochs", "1", "--eval-episodes", "1",
            "--eval-opponents", "random", "--scenarios", "skirmish", "--threads", "1", "--storage", "float32"]
    try:
        assert main([*argv, "--generations", "1"]) == 0
        data = np.load(out / "data" / "gen0.npz")
        assert data["maps"].shape == (len(data["obs"]), -(-(_maurice.OBSERVATION_SIZE - 1084) // 8))
        assert main([*argv, "--generations", "2"]) == 0
        assert "resuming" in capsys.readouterr().out
        path = out / "net_gen1.safetensors"
        meta = load_network(path)
        assert meta["inputs"] == "maps" and json.loads(meta["maps"])["strides"] == [3, 2]
        assert json.loads(meta["training"])["teacher"] == "network_search@2"
        # Rust's forward pass over full observations is torch's.
        env = MauriceEnv(scenario="skirmish")
        rows = np.stack([env.reset(seed=s)[0] for s in range(3)]).astype(np.float32)
        assert rows.shape[1] == _maurice.OBSERVATION_SIZE
        logits, values = _maurice.network_forward(rows)
        model = model_from_file(str(path)).eval()
        with torch.no_grad():
            want_logits, want_values = model(torch.from_numpy(rows))
        np.testing.assert_allclose(logits, want_logits.numpy(), atol=1e-4)
        np.testing.assert_allclose(values, torch.sigmoid(want_values).numpy(), atol=1e-5)
        # Its levels play from the full observation.
        obs, info = env.reset(seed=4)
        assert info["action_mask"][NetworkAgent().act(obs, info["action_mask"])]
        assert info["action_mask"][NetworkSearchAgent(budget=2, seed=1).act(obs, info["action_mask"])]
        # Another stem than the checkpoint's is refused; so is a malformed one.
        assert main([*argv, "--maps", "4", "--generations", "3"]) == 2
        assert "checkpoint" in capsys.readouterr().err
        with pytest.raises(SystemExit, match="--maps must be comma-separated positive channel counts"):
            main([*argv[:3], str(tmp_path / "bad"), *argv[4:], "--maps", "4,x"])
    finally:
        _reload_shipped()


def test_a_map_stem_grafted_onto_the_shipped_network_plays_as_it_did(tmp_path):
    """`graft_map_stem`: the shipped network with a stem over the map planes whose weights into the
    trunk start at zero computes what the shipped file does, in torch and in Rust, until training
    moves them; a network that has a stem, or one of other widths, is refused naming why."""
    import torch

    from maquis.maurice.network import network_file_metadata, shipped_network_path
    from maquis.maurice.train.expert import map_stem_layout
    from maquis.train.model import MapStem, PolicyValueNet, graft_map_stem, model_from_file, save_network

    path = shipped_network_path()
    if path is None:
        pytest.skip("no shipped network")
    shipped = model_from_file(str(path)).eval()
    stem = MapStem(map_stem_layout(2), (4, 6), (3, 3))
    torch.manual_seed(0)
    fresh = PolicyValueNet(shipped.hidden, "maps", _maurice.OBSERVATION_SIZE, _maurice.NUM_ACTIONS, maps=stem)
    grafted = graft_map_stem(shipped, fresh).eval()
    env = MauriceEnv()
    rows = np.stack([env.reset(seed=s)[0] for s in range(3)]).astype(np.float32)
    with torch.no_grad():
        assert grafted.maps[0].weight.abs().sum() > 0  # the stem computes something the trunk ignores
        want_logits, want_values = shipped(torch.from_numpy(rows[:, :_maurice.COMPACT_OBSERVATION_SIZE]))
        got_logits, got_values = grafted(torch.from_numpy(rows))
    np.testing.assert_allclose(got_logits.numpy(), want_logits.numpy(), atol=1e-5)
    np.testing.assert_allclose(got_values.numpy(), want_values.numpy(), atol=1e-5)
    out = tmp_path / "grafted.safetensors"
    save_network(grafted, str(out), {"grafted": str(path)}, network_file_metadata())
    try:
        load_network(path)
        before = _maurice.network_forward(rows[:, :_maurice.COMPACT_OBSERVATION_SIZE])
        load_network(out)
        after = _maurice.network_forward(rows)
        np.testing.assert_allclose(after[0], before[0], atol=1e-3)
        np.testing.assert_allclose(after[1], before[1], atol=1e-4)
    finally:
        _reload_shipped()
    with pytest.raises(ValueError, match="from a network with one onto a network without one"):
        graft_map_stem(grafted, fresh)
    with pytest.raises(ValueError, match="the networks differ: hidden"):
        graft_map_stem(PolicyValueNet((8,), "observation", _maurice.COMPACT_OBSERVATION_SIZE, _maurice.NUM_ACTIONS),
                       fresh)


def test_train_from_a_network_without_a_stem_grafts_the_one_of_maps(tmp_path, capsys):
    """`maquis maurice train --init FILE --maps C`: a compact network gets the stem grafted on and
    the run's networks read the maps; a file with another stem is refused naming both."""
    from maquis.common.cli import main
    from maquis.train.model import model_from_file

    compact = tmp_path / "compact.safetensors"
    write_network_file(str(compact), _maurice_tensors(3), {"training": "test"}, metadata=mnet.network_file_metadata())
    base = ["maurice", "train", "--games0", "2", "--games", "1", "--teacher0-budget", "2", "--budget", "2",
            "--epochs", "1", "--eval-episodes", "1", "--eval-opponents", "random", "--scenarios", "skirmish",
            "--threads", "1", "--storage", "float32", "--generations", "1"]
    try:
        out = tmp_path / "grafted"
        assert main([*base, "--out", str(out), "--init", str(compact), "--maps", "4"]) == 0
        net = model_from_file(str(out / "net_gen0.safetensors"))
        assert net.maps is not None and [c.out_channels for c in net.maps] == [4] and net.hidden == (16,)
        assert load_network(out / "net_gen0.safetensors")["inputs"] == "maps"
        capsys.readouterr()
        assert main([*base, "--out", str(tmp_path / "other"), "--init", str(out / "net_gen0.safetensors"),
                     "--maps", "4,6"]) == 2
        err = capsys.readouterr().err
        assert "has the map stem" in err and "channels [4]" in err and "channels [4, 6]" in err
    finally:
        _reload_shipped()
