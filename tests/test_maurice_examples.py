"""Smoke test of the Maurice Lite training example (examples/maurice_ppo.py): a few hundred learner
steps in a subprocess, as a user runs it; it must exit cleanly, write its curve, its final
evaluation with the heuristic's baseline, and a checkpoint that `--resume` continues from.
Without torch (`pip install torch`) the training test is SKIPPED; `--help` runs without it.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "maurice_ppo.py"
TINY = ["--scenario", "skirmish", "--num-envs", "4", "--num-steps", "16", "--total-steps", "100", "--eval-every", "1",
        "--eval-episodes", "2", "--epochs", "1", "--hidden", "32", "--channels", "4"]


def _run(args: list[str], cwd: Path) -> str:
    env = dict(os.environ, PYTHONUNBUFFERED="1", OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, str(EXAMPLE), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"maurice_ppo.py exited {proc.returncode}:\n{out[-4000:]}"
    return out


def test_help_needs_no_torch(tmp_path):
    assert "--scenario" in _run(["--help"], tmp_path)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed (pip install torch)")
def test_tiny_run_writes_curve_evaluation_and_resumes(tmp_path):
    out = tmp_path / "run"
    _run([*TINY, "--out", str(out)], tmp_path)
    rows = list(csv.DictReader(open(out / "curve.csv")))
    assert rows and all(0.0 <= float(r["eval_win"]) <= 1.0 for r in rows)
    final = json.loads((out / "final_eval.json").read_text())
    assert final["episodes"] == 2 and set(final) >= {"ppo", "heuristic"}
    assert 0.0 <= final["heuristic"]["eval_win"] <= 1.0
    steps = int(rows[-1]["env_steps"])
    _run([*TINY, "--total-steps", str(steps + 64), "--resume", str(out / "checkpoint.pt"), "--out", str(out)], tmp_path)
    resumed = list(csv.DictReader(open(out / "curve.csv")))
    assert len(resumed) > len(rows) and int(resumed[-1]["env_steps"]) > steps


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed (pip install torch)")
def test_tiny_warm_start_imitates_then_hands_over_to_ppo(tmp_path):
    """`--imitate heuristic`: the first updates imitate (a cross-entropy to the heuristic's moves is
    fitted and falls), the later ones are PPO with the decaying cross-entropy term."""
    out = tmp_path / "warm"
    _run([*TINY, "--total-steps", "1024", "--imitate", "heuristic", "--imitate-minutes", "0.002",
          "--imitate-steps", "4", "--imitate-minibatch", "32", "--imitate-buffer", "256", "--bc-decay-minutes", "1",
          "--out", str(out)], tmp_path)
    rows = list(csv.DictReader(open(out / "curve.csv")))
    phases = [r["phase"] for r in rows]
    assert phases[0] == "imitate" and phases[-1] == "ppo", phases
    imitating = [float(r["bc_loss"]) for r in rows if r["phase"] == "imitate"]
    assert all(x > 0.0 for x in imitating), imitating


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed (pip install torch)")
def test_tiny_network_run_from_both_seats_writes_a_network_the_levels_play(tmp_path):
    """`--model network --side both`: the bundled levels' network trained by PPO from both seats
    against two opponents; its file plays as `network@FILE` in the ladder runner, and the
    evaluation covers both seats."""
    from maquis.common.rate import agent_pairs
    from maquis.maurice.tournament import GAME as LADDER

    out = tmp_path / "net"
    _run([*TINY, "--model", "network", "--init-network", "scratch", "--hidden", "16", "--side", "both",
          "--train-opponents", "heuristic,random", "--reward", "outcome", "--shaping", "advance=2", "--out", str(out)],
         tmp_path)
    assert json.loads((out / "args.json").read_text())["shaping"] == "advance=2"
    final = json.loads((out / "final_eval.json").read_text())
    assert final["side"] == "both"
    pairs = agent_pairs(LADDER, f"network@{out / 'network.safetensors'}", "random", range(1), 0, 10)
    assert pairs.shape == (1, 2) and set(pairs.ravel()) <= {-1, 0, 1}


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed (pip install torch)")
def test_maps_grafts_a_stem_onto_the_network_ppo_trains(tmp_path):
    """`--model network --maps 4`: PPO trains the starting network with a stem over the map planes
    grafted on; the saved network reads the full observation and the ladder plays it."""
    from maquis.common.network_file import read_network_file
    from maquis.common.rate import agent_pairs
    from maquis.maurice.tournament import GAME as LADDER

    out = tmp_path / "maps"
    _run([*TINY, "--model", "network", "--init-network", "scratch", "--hidden", "16", "--maps", "4", "--out", str(out)],
         tmp_path)
    tensors, meta = read_network_file(str(out / "network.safetensors"))
    assert meta["inputs"] == "maps" and tensors["maps.0.weight"].shape == (4, 15, 3, 3)
    pairs = agent_pairs(LADDER, f"network@{out / 'network.safetensors'}", "random", range(1), 0, 10)
    assert pairs.shape == (1, 2)


def test_maps_needs_the_network_model_and_channel_counts():
    from maquis.maurice.train.ppo import parse_args

    for argv, message in ((["--maps", "4"], "needs --model network"),
                          (["--model", "network", "--maps", "4,x"], "comma-separated positive channel counts")):
        with pytest.raises(SystemExit) as e:
            parse_args(argv)
        assert e.value.code == 2, (argv, message)


def test_network_model_is_not_warm_started_by_imitation(tmp_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.run([sys.executable, str(EXAMPLE), "--model", "network", "--imitate", "heuristic"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "--init-network" in proc.stderr


def test_shaping_option_gives_the_envs_keyword_at_the_ppo_discount():
    from maquis.maurice.train.ppo import parse_args, shaping_keyword

    assert shaping_keyword(parse_args([])) is None
    assert shaping_keyword(parse_args(["--shaping", "default", "--gamma", "0.99"])) == {"gamma": 0.99, "weights": {}}
    assert shaping_keyword(parse_args(["--shaping", "advance=2, morale=0"])) == {
        "gamma": 0.997, "weights": {"advance": 2.0, "morale": 0.0}}
    for bad in ("speed=1", "advance", "advance=x"):
        with pytest.raises(SystemExit) as e:
            parse_args(["--shaping", bad])
        assert e.value.code == 2


def _gate_rows(out):
    return list(csv.DictReader(open(out / "gate.csv")))


# Bounds that decide whatever the networks (a new network is never 400 Elo stronger, always more
# than -800), so that the tests check the loop, not the networks' strength.
GATE_REJECTS = ["--gate-elo0", "400", "--gate-elo1", "800"]
GATE_KEEPS = ["--gate-elo0", "-800", "--gate-elo1", "-400"]


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed (pip install torch)")
@pytest.mark.parametrize("bounds", ["keeps", "rejects"])
def test_the_gate_tests_each_evaluation_against_the_kept_network_and_resumes_with_its_decisions(tmp_path, bounds):
    """`--gate`: the starting network is kept untested; each later evaluation's network meets the
    last kept one through the heuristic; H1 keeps it (`gate/update<U>.safetensors`, copied to
    `best_network.safetensors`), H0 leaves the kept one and removes the candidate. A resumed run
    tests its new evaluations against the kept network of its checkpoint."""
    out = tmp_path / "gated"
    gate = ["--model", "network", "--init-network", "scratch", "--hidden", "16", "--reward", "outcome", "--gate",
            "--gate-against", "heuristic", "--gate-max-pairs", "20",
            *(GATE_KEEPS if bounds == "keeps" else GATE_REJECTS), "--out", str(out)]
    printed = _run([*TINY, *gate], tmp_path)
    rows = _gate_rows(out)
    assert [int(r["update"]) for r in rows] == [1, 2] and {r["through"] for r in rows} == {"heuristic"}
    assert all(sum(int(c) for c in r["counts"].split()) == int(r["pairs"]) for r in rows)
    expected = [("0", "H1", "1"), ("1", "H1", "2")] if bounds == "keeps" else [("0", "H0", "0"), ("0", "H0", "0")]
    assert [(r["against"], r["decision"], r["kept"]) for r in rows] == expected
    assert "gate: network of update 2 v update" in printed
    kept = int(rows[-1]["kept"])
    files = sorted(p.name for p in (out / "gate").iterdir())
    assert files == (["update0.safetensors", "update1.safetensors", "update2.safetensors"] if bounds == "keeps"
                     else ["update0.safetensors"])
    assert (out / "best_network.safetensors").read_bytes() == (out / "gate" / f"update{kept}.safetensors").read_bytes()
    steps = int(list(csv.DictReader(open(out / "curve.csv")))[-1]["env_steps"])
    _run([*TINY, *gate, "--total-steps", str(steps + 64), "--resume", str(out / "checkpoint.pt")], tmp_path)
    again = _gate_rows(out)
    assert again[:2] == rows and [int(r["update"]) for r in again] == [1, 2, 3]
    assert again[2]["against"] == str(kept)


def test_the_gate_needs_a_network_one_way_of_keeping_and_a_known_level():
    from maquis.maurice.train.ppo import parse_args

    for argv, message in ((["--gate"], "needs --model network"),
                          (["--model", "network", "--gate", "--keep-best"], "give one"),
                          (["--model", "network", "--gate", "--gate-against", "nobody"], "unknown level 'nobody'"),
                          (["--model", "network", "--gate", "--gate-elo0", "5", "--gate-elo1", "5"],
                           "needs --gate-elo0 < --gate-elo1")):
        with pytest.raises(SystemExit) as e:
            parse_args(argv)
        assert e.value.code == 2, argv
