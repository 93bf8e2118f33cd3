"""The gate of expert iteration (`--gate`, `maquis.train.iteration`): two networks meet in a
game's Rust ladder runner (`network@FILE` agents), the rated ladder's sequential test keeps a
clearly stronger generation and rejects a clearly weaker one, and a gated run records each
decision in `gate.csv`, teaches the next generation from the kept network, writes it to
`best.safetensors` and resumes with that state."""

from __future__ import annotations

import csv
import json
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")

import maquis  # noqa: E402
from maquis._core import dday as _dday  # noqa: E402
from maquis._core import maurice as _maurice  # noqa: E402
from maquis.common.ladder import deal_games  # noqa: E402
from maquis.common.rate import THROUGH_BINS, agent_pairs, sprt_agents, sprt_through  # noqa: E402
from maquis.dday import network as dnet  # noqa: E402
from maquis.dday.train import expert as dday_expert  # noqa: E402
from maquis.maurice import network as mnet  # noqa: E402
from maquis.maurice.tournament import GAME as MAURICE_LADDER  # noqa: E402
from maquis.train import iteration  # noqa: E402
from maquis.train.model import PolicyValueNet, save_network  # noqa: E402


def _random_network(path, obs_size, num_actions, metadata, seed=0):
    """A network of random weights (a clearly weak player), written to `path`."""
    torch.manual_seed(seed)
    model = PolicyValueNet((16,), "observation", obs_size, num_actions)
    save_network(model, str(path), {"test": "random weights"}, metadata)
    return path


@pytest.fixture(scope="module")
def dday_nets(tmp_path_factory):
    shipped = dnet.shipped_network_path()
    if shipped is None:
        pytest.skip("needs the shipped D-Day network")
    weak = _random_network(tmp_path_factory.mktemp("gate") / "weak.safetensors", _dday.OBSERVATION_SIZE,
                           _dday.NUM_ACTIONS, dnet.network_file_metadata())
    return shipped, weak


def test_two_networks_meet_in_the_ladder_runner_and_bad_ids_are_clear(tmp_path):
    weak = _random_network(tmp_path / "weak.safetensors", _maurice.COMPACT_OBSERVATION_SIZE, _maurice.NUM_ACTIONS,
                           mnet.network_file_metadata())
    specs = [g for k in range(3) for g in deal_games(f"network@{weak}", "heuristic", 7, k)]
    results = _maurice.play_games(specs, 10, 2)
    assert len(results) == 6 and set(results) <= {-1, 0, 1}
    assert _maurice.play_games(specs, 10, 1) == results  # the same games on any number of threads
    pairs = agent_pairs(MAURICE_LADDER, f"network_search@{weak}", f"network@{weak}", range(2), 7, 5)
    assert pairs.shape == (2, 2)
    bad = [("heuristic@x", "only network@FILE and network_search@FILE"),
           (f"network@{tmp_path / 'none.safetensors'}", "No such file")]
    if dnet.shipped_network_path() is not None:  # another game's network: both fingerprints named
        bad.append((f"network@{dnet.shipped_network_path()}", "made for observation layout dday1944-"))
    for agent, message in bad:
        with pytest.raises(maquis.MaquisError, match=message):
            _maurice.play_games([(agent, 1, "random", 2, 3)], 10, 1)


def test_the_sequential_test_keeps_a_clearly_stronger_network_and_rejects_a_clearly_weaker_one(dday_nets):
    strong, weak = dday_nets
    stronger = sprt_agents(dday_expert._game().ladder, f"network@{strong}", f"network@{weak}", 0, 20, seed=5,
                           max_pairs=200, batch=16, budget=10, threads=2)
    assert stronger.decision == "H1" and stronger.pairs < 200, stronger
    # The gate's row: generation 1 (the weak file) against the kept generation 0 (the strong one).
    args = SimpleNamespace(gate_agent="network", gate_elo0=0.0, gate_elo1=20.0, gate_alpha=0.05, gate_beta=0.05,
                           gate_max_pairs=200, gate_seed=1000, gate_budget=10, threads=2)
    row = iteration.gate(dday_expert._game(), args, 1, weak, 0, strong)
    assert (row["decision"], row["kept"], row["against"]) == ("H0", 0, 0), row
    assert sum(int(c) for c in row["counts"].split()) == row["pairs"] and row["llr"] <= row["lower"]


def _train(out, *extra, generations):
    from maquis.common.cli import main

    return main(["maurice", "train", "--out", str(out), "--games0", "2", "--games", "1", "--teacher0-budget", "2",
                 "--budget", "2", "--hidden", "8", "--epochs", "1", "--eval-episodes", "1", "--eval-opponents",
                 "random", "--scenarios", "skirmish", "--threads", "1", "--storage", "float32", "--gate",
                 "--gate-max-pairs", "20", "--generations", str(generations), *extra])


def _gate_rows(out):
    with open(out / "gate.csv") as f:
        return list(csv.DictReader(f))


def _teacher_generation(path):
    return json.loads(mnet.load_network(path)["training"]).get("teacher_generation")


# Bounds that decide whatever the networks: a new generation is never 400 Elo stronger (rejected),
# always more than -800 (kept), so the test checks the loop, not the networks' strength.
REJECT = ("--gate-elo0", "400", "--gate-elo1", "800")
KEEP = ("--gate-elo0", "-800", "--gate-elo1", "-400")


def test_a_rejected_generation_leaves_the_kept_one_teaching_and_a_resumed_run_keeps_it(tmp_path, capsys):
    out = tmp_path / "rejecting"
    try:
        assert _train(out, *REJECT, generations=2) == 0
        rows = _gate_rows(out)
        assert [(r["generation"], r["against"], r["decision"], r["kept"]) for r in rows] == [("1", "0", "H0", "0")]
        assert (out / "best.safetensors").read_bytes() == (out / "net_gen0.safetensors").read_bytes()
        printed = capsys.readouterr().out
        assert "gate: network of generation 1 v generation 0" in printed and "generation 0 kept" in printed
        # Resumed for a third generation: the checkpoint's kept generation (0, not the last, 1) teaches it.
        assert _train(out, *REJECT, generations=3) == 0
        assert "resuming" in capsys.readouterr().out
        assert _teacher_generation(out / "net_gen1.safetensors") == 0
        assert _teacher_generation(out / "net_gen2.safetensors") == 0
        assert [(r["generation"], r["against"], r["kept"]) for r in _gate_rows(out)] == [("1", "0", "0"), ("2", "0", "0")]
        assert (out / "best.safetensors").read_bytes() == (out / "net_gen0.safetensors").read_bytes()
    finally:
        if mnet.shipped_network_path() is not None:
            mnet.load_network(mnet.shipped_network_path())


def test_a_kept_generation_teaches_the_next_and_is_the_runs_result(tmp_path):
    out = tmp_path / "keeping"
    try:
        assert _train(out, *KEEP, generations=3) == 0
        assert [(r["generation"], r["against"], r["decision"], r["kept"]) for r in _gate_rows(out)] == [
            ("1", "0", "H1", "1"), ("2", "1", "H1", "2")]
        assert _teacher_generation(out / "net_gen2.safetensors") == 1
        assert (out / "best.safetensors").read_bytes() == (out / "net_gen2.safetensors").read_bytes()
        for r in _gate_rows(out):
            assert float(r["llr"]) >= float(r["upper"]) and int(r["pairs"]) <= 20
    finally:
        if mnet.shipped_network_path() is not None:
            mnet.load_network(mnet.shipped_network_path())


@pytest.mark.parametrize("extra, message", [(("--gate-elo0", "20", "--gate-elo1", "10"), "--gate-elo0 < --gate-elo1"),
                                            (("--gate-max-pairs", "0"), "--gate-max-pairs must be at least 1"),
                                            (("--gate-against", "nobody"), "--gate-against: unknown level 'nobody'"),
                                            (("--gate-alpha", "0.7"), "alpha must be in")])
def test_bad_gate_flags_are_clear_errors(tmp_path, capsys, extra, message):
    assert _train(tmp_path / "bad", *extra, generations=2) == 2
    assert message in capsys.readouterr().err


def test_through_a_level_two_networks_that_draw_each_other_are_told_apart(tmp_path):
    """Maurice Lite's networks draw every game against each other; through the heuristic (each
    plays it on the same deals, a pair scoring the first's points less the second's, in eighths)
    the shipped network is kept against random weights and random weights are rejected against it,
    and a network against itself scores a half in every pair."""
    shipped = mnet.shipped_network_path()
    if shipped is None:
        pytest.skip("needs the shipped Maurice Lite network")
    weak = _random_network(tmp_path / "weak.safetensors", _maurice.COMPACT_OBSERVATION_SIZE, _maurice.NUM_ACTIONS,
                           mnet.network_file_metadata())
    a, b = f"network@{shipped}", f"network@{weak}"
    for first, second, decision in ((a, b, "H1"), (b, a, "H0")):
        r = sprt_through(MAURICE_LADDER, first, second, "heuristic", 0, 20, seed=5, max_pairs=200, batch=16, threads=2)
        assert r.decision == decision and r.pairs < 200 and len(r.counts) == len(THROUGH_BINS) == 9, r
        assert sum(r.counts) == r.pairs and r.settings["through"] == "heuristic" and "through heuristic" in str(r)
    same = sprt_through(MAURICE_LADDER, a, a, "heuristic", 0, 20, seed=5, max_pairs=200, batch=16, threads=2)
    assert same.decision == "H0" and same.counts[4] == same.pairs
    # The gate's row names the level it went through.
    args = SimpleNamespace(gate_agent="network", gate_against="heuristic", gate_elo0=0.0, gate_elo1=20.0,
                           gate_alpha=0.05, gate_beta=0.05, gate_max_pairs=200, gate_seed=1000, gate_budget=10, threads=2)
    row = iteration.gate(iteration_game(), args, 1, shipped, 0, weak)
    assert (row["through"], row["decision"], row["kept"]) == ("heuristic", "H1", 1), row


def iteration_game():
    from maquis.maurice.train import expert as maurice_expert

    return maurice_expert.game()
